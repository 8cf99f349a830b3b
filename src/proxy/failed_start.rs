//! What the proxy says when it has no engine to run: its configuration was
//! not found, the engine could not be started, or the engine died before
//! its `uciok`. Exiting at once would leave a GUI user with nothing: Cute
//! Chess shows "Could not initialize player NAME:" with an empty reason,
//! ignores `info string` and discards stderr unless `stderr=FILE` is set.
//! So the proxy completes a minimal UCI handshake that carries the reason
//! where GUIs do show something:
//! * `id name uci960: REASON`: the engine's name, which Cute Chess and
//!   cutechess-cli use for an engine configured without a name (and print
//!   in every game line and the PGN), and which python-chess returns as
//!   `engine.id["name"]`;
//! * `info string uci960: REASON` after `uci` and at `go` (Arena, Banksia
//!   and python-chess show or log these; Cute Chess with `-debug`);
//! * `option name UCI_Chess960` and `readyok` to `isready`, so the GUI
//!   gets as far as starting a (Chess960) game;
//! * at `go` the proxy exits (status 3, or 2 for a missing configuration):
//!   the GUI reports the engine as disconnected ("White disconnects" in
//!   Cute Chess) at once instead of waiting for its clock.
//!
//! The reason is also printed once on stderr by the caller. [`FailedStart`]
//! is sans-IO (lines in, lines out); [`serve`] is the small blocking loop
//! over stdin and stdout that runs it (there is no engine to poll).

use std::io::{self, BufRead, Write};

/// GUI lines longer than this are skipped, not buffered whole.
const MAX_LINE: u64 = 1 << 20;

/// The responder.
pub struct FailedStart {
    reason: String,
}

impl FailedStart {
    /// A responder for `reason` (line breaks become spaces: nothing may
    /// inject a UCI line).
    pub fn new(reason: &str) -> FailedStart {
        let reason: String = reason
            .chars()
            .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
            .collect();
        FailedStart { reason }
    }

    /// One GUI line; lines for the GUI go to `out`. `true`: exit now.
    pub fn from_gui(&mut self, line: &[u8], out: &mut Vec<String>) -> bool {
        let text = String::from_utf8_lossy(line);
        let info = format!("info string uci960: {}", self.reason);
        match text.split_ascii_whitespace().next() {
            Some("uci") => {
                out.push(format!("id name uci960: {}", self.reason));
                out.push("id author uci960".into());
                // Declared so that GUIs start a Chess960 game and reach
                // `go` (python-chess refuses a Chess960 board otherwise,
                // Cute Chess the variant) rather than blame a missing
                // option.
                out.push("option name UCI_Chess960 type check default false".into());
                out.push(info);
                out.push("uciok".into());
                false
            }
            Some("isready") => {
                out.push("readyok".into());
                false
            }
            Some("go") => {
                out.push(info);
                true
            }
            Some("quit") => true,
            _ => false,
        }
    }
}

/// Says `reason` on stderr once and answers the GUI on stdin/stdout (see
/// [`serve`]).
pub fn run(reason: &str, pending: &[Vec<u8>]) {
    crate::platform::diag::line(&format!("uci960 proxy: {reason}"));
    serve(
        reason,
        pending,
        &mut io::stdin().lock(),
        &mut io::stdout().lock(),
    )
}

/// Runs the responder on `input` and `output` until `go`, `quit` or end of
/// input, first answering `pending` (GUI lines the proxy had already read).
pub fn serve(reason: &str, pending: &[Vec<u8>], input: &mut impl BufRead, output: &mut impl Write) {
    let mut responder = FailedStart::new(reason);
    let mut out = Vec::new();
    let mut answer = |line: &[u8], output: &mut dyn Write| -> io::Result<bool> {
        out.clear();
        let done = responder.from_gui(line, &mut out);
        for l in &out {
            writeln!(output, "{l}")?;
        }
        output.flush()?;
        Ok(done)
    };
    for line in pending {
        match answer(line, output) {
            Ok(false) => {}
            _ => return,
        }
    }
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match io::Read::take(&mut *input, MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if !buf.ends_with(b"\n") && buf.len() as u64 == MAX_LINE {
            // Too long to be a UCI command: skip the rest of it.
            if skip_line(input).is_err() {
                return;
            }
            continue;
        }
        match answer(&buf, output) {
            Ok(false) => {}
            _ => return,
        }
    }
}

/// Reads up to and including the next `\n` without keeping it.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        match memchr::memchr(b'\n', chunk) {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(reason: &str, pending: &[&str], input: &[u8]) -> (String, ()) {
        let pending: Vec<Vec<u8>> = pending.iter().map(|l| l.as_bytes().to_vec()).collect();
        let mut output = Vec::new();
        serve(
            reason,
            &pending,
            &mut io::Cursor::new(input.to_vec()),
            &mut output,
        );
        (String::from_utf8(output).unwrap(), ())
    }

    #[test]
    fn handshake_names_the_reason_then_go_ends_it() {
        let (out, ()) = run(
            "engine 'nosuch' not found",
            &[],
            b"uci\nsetoption name Hash value 1\nisready\nucinewgame\nposition startpos\ngo wtime 1000\nisready\n",
        );
        assert_eq!(
            out,
            "id name uci960: engine 'nosuch' not found\n\
             id author uci960\n\
             option name UCI_Chess960 type check default false\n\
             info string uci960: engine 'nosuch' not found\n\
             uciok\n\
             readyok\n\
             info string uci960: engine 'nosuch' not found\n"
        );
    }

    #[test]
    fn pending_lines_are_answered_first_and_line_breaks_never_leak() {
        let (out, _) = run("a\nquit\rb", &["uci"], b"quit\nisready\n");
        assert!(out.starts_with("id name uci960: a quit b\n"), "{out}");
        assert!(!out.contains("readyok"), "quit ends it: {out}");
    }

    #[test]
    fn an_endless_line_is_skipped() {
        let mut input = vec![b'x'; (MAX_LINE + 10) as usize];
        input.extend_from_slice(b"\nisready\n");
        let (out, _) = run("r", &[], &input);
        assert_eq!(out, "readyok\n");
    }
}
