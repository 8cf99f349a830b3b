//! `book --package fishtest|openbench NAME`: a book in the form the test
//! frameworks take as it is, with the description each one checks.
//!
//! Facts from their sources (docs/BOOKS.md has the references):
//!
//! * **fishtest** plays `-variant fischerandom` when the book's file name,
//!   upper-cased, contains `FRC` or `960` (`worker/games.py`). It fetches
//!   `NAME.epd.zip` from its books repository, unzips `NAME.epd`, and
//!   checks it against the `sri` of `books.json`: the base64 SHA-384 of the
//!   text with CRLF (and lone CR) turned into LF. The same entry holds
//!   `total`, `white`, `black` (side to move) and `min_depth`/`max_depth`,
//!   the ply of each line computed from its sixth FEN field (the full-move
//!   number) and side to move, `null` when no line has one; the
//!   repository's CI recomputes them all (`update_json.py`).
//! * **OpenBench** plays Chess960 when the name contains `FRC`, `960` or
//!   `FISCHER` (`Client/worker.py`), and describes a book by
//!   `Books/NAME.epd.json`: `sha` (SHA-256 of the unzipped `.epd`) and
//!   `source` (the URL of the zip).
//!
//! So the package is `NAME.epd` (one six-field FEN per line, LF, as all
//! their Chess960 books are: the ply statistics need the counters as FEN
//! fields, and fastchess and python-chess read them), `NAME.epd.zip`
//! holding it (deflate, fixed 1980 timestamps: the same book gives the same
//! bytes), and `books.json` (fishtest; an existing one in the directory
//! keeps its other entries) or `NAME.epd.json` (OpenBench).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use sha2::{Digest, Sha256, Sha384};

use crate::keyword::Keyword;

/// A framework that takes books.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framework {
    Fishtest,
    OpenBench,
}

impl Keyword for Framework {
    const WHAT: &'static str = "framework";
    const WORDS: &'static [(Framework, &'static str, &'static str)] = &[
        (Framework::Fishtest, "fishtest", "Stockfish's fishtest"),
        (Framework::OpenBench, "openbench", "OpenBench"),
    ];
}

impl Framework {
    /// The substrings (of the upper-cased name) that make the framework
    /// play a book as Chess960.
    pub fn chess960_marks(self) -> &'static [&'static str] {
        match self {
            Framework::Fishtest => &["FRC", "960"],
            Framework::OpenBench => &["FRC", "960", "FISCHER"],
        }
    }

    fn source(self) -> &'static str {
        match self {
            Framework::Fishtest => "worker/games.py",
            Framework::OpenBench => "Client/worker.py",
        }
    }
}

impl std::fmt::Display for Framework {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Framework::Fishtest => "fishtest",
            Framework::OpenBench => "OpenBench",
        })
    }
}

/// Why a book cannot be packaged.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error(
        "book name '{name}': {framework} would play it as standard chess, not Chess960: it plays a book as Chess960 only when its name contains {marks} ({code}); call it e.g. '{suggestion}'"
    )]
    NotChess960 {
        framework: Framework,
        name: String,
        marks: String,
        code: &'static str,
        suggestion: String,
    },
    #[error(
        "book name '{0}': use letters, digits, '_', '-', '+' and '.' only (it becomes a file name and a URL)"
    )]
    BadName(String),
    #[error("{}: {cause}", path.display())]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{}: cannot be read as the books.json of fishtest: {cause}", path.display())]
    BooksJson { path: PathBuf, cause: String },
}

/// The book's file name (`NAME.epd`) for `framework`, or why the framework
/// would not play `name` as Chess960.
pub fn book_file_name(framework: Framework, name: &str) -> Result<String, PackageError> {
    let stem = name.strip_suffix(".epd").unwrap_or(name);
    if stem.is_empty()
        || stem.starts_with('.')
        || !stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-+.".contains(c))
    {
        return Err(PackageError::BadName(name.to_string()));
    }
    let file = format!("{stem}.epd");
    let upper = file.to_ascii_uppercase();
    let marks = framework.chess960_marks();
    if !marks.iter().any(|m| upper.contains(m)) {
        return Err(PackageError::NotChess960 {
            framework,
            name: name.to_string(),
            marks: marks
                .iter()
                .map(|m| format!("'{m}'"))
                .collect::<Vec<_>>()
                .join(" or "),
            code: framework.source(),
            suggestion: format!("{stem}_FRC"),
        });
    }
    Ok(file)
}

/// What fishtest's `update_json.py` computes of an EPD book's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BookFacts {
    pub total: u64,
    pub white: u64,
    pub black: u64,
    pub min_ply: Option<u64>,
    pub max_ply: Option<u64>,
}

/// The facts of an EPD text, counted the way fishtest counts them: every
/// line's second field `w` or `b`; the ply `(fmvn − 1) × 2` (+1 with Black
/// to move) of each line whose sixth field is a number.
pub fn facts(text: &str) -> BookFacts {
    let mut f = BookFacts::default();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let black = match fields.get(1) {
            Some(&"w") => false,
            Some(&"b") => true,
            _ => continue,
        };
        if black {
            f.black += 1;
        } else {
            f.white += 1;
        }
        if let Some(fmvn) = fields.get(5).and_then(|t| t.parse::<u64>().ok()) {
            let ply = fmvn.saturating_sub(1) * 2 + u64::from(black);
            f.min_ply = Some(f.min_ply.map_or(ply, |m| m.min(ply)));
            f.max_ply = Some(f.max_ply.map_or(ply, |m| m.max(ply)));
        }
    }
    f.total = f.white + f.black;
    f
}

/// fishtest's `sri`: base64 of the SHA-384 of the text with CRLF and lone
/// CR turned into LF.
pub fn sri(text: &[u8]) -> String {
    let mut hash = Sha384::new();
    let mut rest = text;
    while let Some(i) = memchr::memchr(b'\r', rest) {
        hash.update(&rest[..i]);
        hash.update(b"\n");
        rest = &rest[i + 1..];
        if rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
    }
    hash.update(rest);
    base64::engine::general_purpose::STANDARD.encode(hash.finalize())
}

/// OpenBench's `sha`: the SHA-256 of the bytes, in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(64);
    for b in Sha256::digest(bytes) {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// A zip archive holding one file, deflated, dated 1980-01-01.
pub fn zip_one(name: &str, bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o644);
    zip.start_file(name, options)
        .map_err(std::io::Error::other)?;
    zip.write_all(bytes)?;
    Ok(zip.finish().map_err(std::io::Error::other)?.into_inner())
}

/// The files a package was written as.
#[derive(Debug)]
pub struct Package {
    pub book: PathBuf,
    pub zip: PathBuf,
    pub description: PathBuf,
    pub facts: BookFacts,
}

/// Writes the package of `text` (the book, LF lines) as `file` (from
/// [`book_file_name`]) into `dir`; `source` is OpenBench's URL of the zip
/// (the zip's file name when not given).
pub fn write_package(
    framework: Framework,
    file: &str,
    text: &str,
    dir: &Path,
    source: Option<&str>,
) -> Result<Package, PackageError> {
    let write = |path: &Path, bytes: &[u8]| write_replacing(path, bytes);
    std::fs::create_dir_all(dir).map_err(|cause| PackageError::Write {
        path: dir.to_path_buf(),
        cause,
    })?;
    let book = dir.join(file);
    write(&book, text.as_bytes())?;
    let zip_name = format!("{file}.zip");
    let zip_path = dir.join(&zip_name);
    let zipped = zip_one(file, text.as_bytes()).map_err(|cause| PackageError::Write {
        path: zip_path.clone(),
        cause,
    })?;
    write(&zip_path, &zipped)?;
    let facts = facts(text);
    let description = match framework {
        Framework::Fishtest => {
            let path = dir.join("books.json");
            let json = fishtest_books_json(&path, file, &facts, &sri(text.as_bytes()))?;
            write(&path, json.as_bytes())?;
            path
        }
        Framework::OpenBench => {
            let path = dir.join(format!("{file}.json"));
            let json = format!(
                "{{\n  \"sha\"     : {},\n  \"source\"  : {}\n}}\n",
                json_string(&sha256_hex(text.as_bytes())),
                json_string(source.unwrap_or(&zip_name))
            );
            write(&path, json.as_bytes())?;
            path
        }
    };
    Ok(Package {
        book,
        zip: zip_path,
        description,
        facts,
    })
}

/// `books.json` with the entry for `file`, in `update_json.py`'s layout
/// (`json.dump(indent=4)`, books sorted case-insensitively): the entries of
/// an existing `books.json` at `path` are kept.
fn fishtest_books_json(
    path: &Path,
    file: &str,
    facts: &BookFacts,
    sri: &str,
) -> Result<String, PackageError> {
    let mut books: Vec<(String, serde_json::Value)> = match std::fs::read_to_string(path) {
        Ok(text) => {
            let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text)
                .map_err(|e| PackageError::BooksJson {
                    path: path.to_path_buf(),
                    cause: e.to_string(),
                })?;
            map.into_iter().filter(|(k, _)| k != file).collect()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(cause) => {
            return Err(PackageError::Write {
                path: path.to_path_buf(),
                cause,
            });
        }
    };
    let ply = |p: Option<u64>| p.map_or(serde_json::Value::Null, serde_json::Value::from);
    let entry = serde_json::json!({
        "total": facts.total,
        "white": facts.white,
        "black": facts.black,
        "min_depth": ply(facts.min_ply),
        "max_depth": ply(facts.max_ply),
        "sri": sri,
    });
    books.push((file.to_string(), entry));
    books.sort_by_key(|(k, _)| k.to_lowercase());
    const FIELDS: [&str; 6] = ["total", "white", "black", "min_depth", "max_depth", "sri"];
    let mut out = String::from("{\n");
    for (i, (name, value)) in books.iter().enumerate() {
        let _ = writeln!(out, "    {}: {{", json_string(name));
        let fields: Vec<(String, &serde_json::Value)> = match value.as_object() {
            Some(obj) => {
                // The known fields in update_json.py's order, then any other.
                let mut f: Vec<(String, &serde_json::Value)> = FIELDS
                    .iter()
                    .filter_map(|k| obj.get(*k).map(|v| (k.to_string(), v)))
                    .collect();
                f.extend(
                    obj.iter()
                        .filter(|(k, _)| !FIELDS.contains(&k.as_str()))
                        .map(|(k, v)| (k.clone(), v)),
                );
                f
            }
            None => Vec::new(),
        };
        for (j, (k, v)) in fields.iter().enumerate() {
            let comma = if j + 1 < fields.len() { "," } else { "" };
            let _ = writeln!(out, "        {}: {}{comma}", json_string(k), python_json(v));
        }
        let comma = if i + 1 < books.len() { "," } else { "" };
        let _ = writeln!(out, "    }}{comma}");
    }
    out.push_str("}\n");
    Ok(out)
}

/// A JSON string as Python's `json.dump` writes it (non-ASCII escaped).
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A scalar the way Python's `json.dump` writes it.
fn python_json(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => json_string(s),
        other => other.to_string(),
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so that a reader never sees half a file and an old file
/// stays whole when writing fails.
fn write_replacing(path: &Path, bytes: &[u8]) -> Result<(), PackageError> {
    let failed = |cause| PackageError::Write {
        path: path.to_path_buf(),
        cause,
    };
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && !meta.file_type().is_file()
    {
        return Err(failed(std::io::Error::other(
            "exists and is not a regular file",
        )));
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_frameworks_would_not_play_as_chess960_are_refused() {
        assert_eq!(
            book_file_name(Framework::Fishtest, "DFRC_4852_uci960").unwrap(),
            "DFRC_4852_uci960.epd"
        );
        assert_eq!(
            book_file_name(Framework::Fishtest, "my960.epd").unwrap(),
            "my960.epd"
        );
        assert!(book_file_name(Framework::Fishtest, "frc_lower").is_ok());
        let err = book_file_name(Framework::Fishtest, "Fischer_book")
            .unwrap_err()
            .to_string();
        assert!(err.contains("'FRC' or '960'"), "{err}");
        assert!(err.contains("Fischer_book_FRC"), "{err}");
        assert_eq!(
            book_file_name(Framework::OpenBench, "Fischer_book").unwrap(),
            "Fischer_book.epd"
        );
        assert!(book_file_name(Framework::OpenBench, "balanced").is_err());
        assert!(book_file_name(Framework::Fishtest, "../FRC").is_err());
        assert!(book_file_name(Framework::Fishtest, "a b FRC").is_err());
    }

    #[test]
    fn facts_and_sri_are_counted_as_fishtest_counts_them() {
        let text = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\r\n\
                    rqkrnbbn/p1pppppp/1p6/8/8/2P1P3/PP1P1PPP/RQNBNKBR b KQkq - 0 2\r\n";
        let f = facts(text);
        assert_eq!(
            f,
            BookFacts {
                total: 2,
                white: 1,
                black: 1,
                min_ply: Some(0),
                max_ply: Some(3)
            }
        );
        assert_eq!(
            sri(text.as_bytes()),
            sri(text.replace("\r\n", "\n").as_bytes())
        );
        assert_eq!(sri(b"a\rb"), sri(b"a\nb"));
        // The SHA-384 of nothing (Python: base64.b64encode(hashlib.sha384(b"").digest())).
        assert_eq!(
            sri(b""),
            "OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let no_counters = facts("8/8/8/8/8/8/8/K6k w - -\n");
        assert_eq!((no_counters.min_ply, no_counters.max_ply), (None, None));
    }
}
