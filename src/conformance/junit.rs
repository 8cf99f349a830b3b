//! The suite's reports as JUnit XML, the form CI systems (GitHub Actions
//! test reporters, GitLab, Jenkins) read: one `<testsuite>` per engine run,
//! one `<testcase>` per check; a failing check's `<failure>` has the
//! diagnosis and the first reproducer as its message and every kept
//! failure in its text; a skipped check has `<skipped>` with the reason.
//!
//! The attributes are the ones the common JUnit schema (Apache Ant's,
//! as published by windyroad and used by Jenkins) requires: `testsuite`
//! has `name`, `tests`, `failures`, `errors`, `skipped`, `time`,
//! `timestamp`, `hostname`, `id` and `package`; `testcase` has `name`,
//! `classname` and `time`; `failure` has `message` and `type`.

use std::fmt::Write as _;

use super::report::{CheckReport, Failure, SuiteReport, Verdict};

/// Escapes text for an XML attribute or element; characters XML 1.0 does
/// not allow (engine garbage) become U+FFFD, line breaks in attributes
/// stay line breaks (`&#10;`).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push('\t'),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The message of a failing check: its diagnoses and the first reproducer.
fn failure_message(c: &CheckReport) -> String {
    let mut msg = format!("{} of {} positions failed", c.failures, c.positions);
    for d in &c.diagnoses {
        let _ = write!(msg, "\n{} ({}x)", d.line, d.count);
    }
    let first = c
        .diagnoses
        .first()
        .map(|d| &d.reproducer)
        .or(c.first_failures.first());
    if let Some(f) = first {
        let _ = write!(
            msg,
            "\n{}: expected {}, got {}\nreproduce:\n{}",
            f.label,
            f.expected,
            f.got,
            f.reproduce.join("\n")
        );
    }
    msg
}

fn failure_text(f: &Failure) -> String {
    let mut t = format!(
        "{}\nfen: {}\nexpected: {}\ngot: {}\n",
        f.label, f.fen, f.expected, f.got
    );
    if let Some(d) = f.diagnosis {
        let _ = writeln!(t, "diagnosis: {d}");
    }
    t.push_str("reproduce:\n");
    for line in &f.reproduce {
        let _ = writeln!(t, "  {line}");
    }
    t
}

/// The machine's name for `hostname` (the schema requires one).
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// The JUnit XML document for one or more runs.
pub fn junit_xml(runs: &[SuiteReport]) -> String {
    // xs:dateTime without a zone, as the schema's pattern wants.
    let timestamp: String = crate::utc::UtcTime::now()
        .rfc3339_micros()
        .chars()
        .take(19)
        .collect();
    let host = escape(&hostname());
    let count = |r: &SuiteReport, want: fn(&Verdict) -> bool| {
        r.checks.iter().filter(|c| want(&c.verdict)).count()
    };
    let failed = |v: &Verdict| *v == Verdict::Fail;
    let skipped = |v: &Verdict| matches!(v, Verdict::Skip(_));
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"uci960 castling-test\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3}\">",
        runs.iter().map(|r| r.checks.len()).sum::<usize>(),
        runs.iter().map(|r| count(r, failed)).sum::<usize>(),
        runs.iter().map(|r| count(r, skipped)).sum::<usize>(),
        runs.iter().map(|r| r.seconds).sum::<f64>(),
    );
    for (id, r) in runs.iter().enumerate() {
        let name = escape(&r.title());
        let _ = writeln!(
            out,
            "  <testsuite name=\"{name}\" package=\"castling-test\" id=\"{id}\" hostname=\"{host}\" timestamp=\"{timestamp}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3}\">",
            r.checks.len(),
            count(r, failed),
            count(r, skipped),
            r.seconds
        );
        out.push_str("    <properties>\n");
        for (k, v) in [
            ("engine", r.engine.clone()),
            ("through_proxy", r.through_proxy.to_string()),
            ("perft_depth", r.perft_depth.to_string()),
            ("search_depth", r.search_depth.to_string()),
        ] {
            let _ = writeln!(
                out,
                "      <property name=\"{k}\" value=\"{}\"/>",
                escape(&v)
            );
        }
        out.push_str("    </properties>\n");
        for c in &r.checks {
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"castling-test.{name}\" time=\"{:.3}\"",
                c.check, c.seconds
            );
            match &c.verdict {
                Verdict::Pass => out.push_str("/>\n"),
                Verdict::Skip(reason) => {
                    let _ = writeln!(
                        out,
                        ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                        escape(reason)
                    );
                }
                Verdict::Fail => {
                    let kind = c
                        .diagnoses
                        .first()
                        .map(|d| d.diagnosis.name())
                        .unwrap_or_else(|| "wrong-answer".into());
                    let text: String = c
                        .first_failures
                        .iter()
                        .map(failure_text)
                        .collect::<Vec<_>>()
                        .join("\n");
                    let _ = writeln!(
                        out,
                        ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                        escape(&failure_message(c)),
                        escape(&kind),
                        escape(&text)
                    );
                }
            }
        }
        out.push_str("    <system-out/>\n    <system-err/>\n  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape("x\u{1}y\nz"), "x\u{FFFD}y&#10;z");
    }
}
