//! Faults a real engine will not produce on demand, with the mock engine
//! (examples/mock_engine.rs): crash mid-search, hang, garbage output, wrong
//! castling notation; and GUI EOF. Each ends with no engine process left.

use crate::common;
use crate::proxy_util;

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use proxy_util::{Proxy, children_of, gone_within};

/// The proxy in front of the mock engine with `flags`, after the handshake.
fn start_mock(flags: &[&str], extra: &[&str]) -> (Proxy, u32) {
    let mock = common::mock_engine();
    let mock = mock.to_string_lossy().into_owned();
    let mut args: Vec<&str> = extra.to_vec();
    args.extend(["--", &mock]);
    args.extend(flags);
    let mut p = Proxy::start(&args);
    p.handshake();
    let kids = children_of(p.pid());
    assert_eq!(kids.len(), 1, "{kids:?}");
    (p, kids[0])
}

#[test]
fn crash_mid_search_is_reported() {
    let (mut p, engine) = start_mock(&["--crash-on-go"], &[]);
    p.send("position startpos");
    p.send("go depth 5");
    p.wait_line("info depth 1");
    let report = p.wait_for("crash report", |l| {
        l.starts_with("info string uci960: engine")
    });
    assert!(report.contains("killed by signal 11 (SIGSEGV)"), "{report}");
    let (status, _, stderr) = p.finish();
    assert_eq!(status.code(), Some(1));
    assert!(stderr.contains("SIGSEGV"), "{stderr}");
    assert!(gone_within(engine, common::PATIENCE));
}

#[test]
fn hanging_engine_is_reported_then_killed_at_gui_eof() {
    let (mut p, engine) = start_mock(
        &["--hang-after-uci", "--ignore-quit"],
        &["--silence-timeout", "0.3"],
    );
    p.send("isready");
    let report = p.wait_for("silence report", |l| l.contains("silent"));
    assert!(
        report.contains("silent for 0.3 s after isready"),
        "{report}"
    );
    // quit ignored, SIGTERM ignored: the proxy still ends (finish has a
    // hang guard) and takes the engine with it.
    let (status, _, stderr) = p.finish();
    assert!(status.success(), "{status}");
    assert!(stderr.contains("silent"), "{stderr}");
    assert!(gone_within(engine, common::PATIENCE));
}

#[test]
fn garbage_passes_byte_exact_and_gui_garbage_does_not_panic() {
    let mut child = Command::new(common::uci960())
        .args(["proxy", "--"])
        .arg(common::mock_engine())
        .arg("--garbage")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (chunks, arrived) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = vec![0; 1 << 16];
        while let Ok(n @ 1..) = stdout.read(&mut buf) {
            if chunks.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut out = Vec::new();
    let contains = |out: &[u8], needle: &[u8]| out.windows(needle.len()).any(|w| w == needle);
    let mut stdin = child.stdin.take().unwrap();
    let mut input = b"uci\r\nisready\r\n".to_vec();
    input.extend_from_slice(b"\xff\xfe garbage from the gui\n");
    input.extend_from_slice(b"setoption name ");
    input.extend(std::iter::repeat_n(b'y', 1 << 20));
    input.extend_from_slice(b"\nposition fen \xff\xfe\ngo depth 1\n");
    input.extend_from_slice(b"position startpos\r\ngo depth 1\r\n");
    stdin.write_all(&input).unwrap();
    // The last search's answer arrives before EOF (EOF sends quit).
    while !contains(&out, b"\nbestmove e2e4\r\n") {
        match arrived.recv_timeout(common::PATIENCE) {
            Ok(chunk) => out.extend(chunk),
            Err(e) => panic!("no bestmove from the mock ({e}); got {} bytes", out.len()),
        }
    }
    drop(stdin);
    let status = proxy_util::wait_exit(&mut child, common::PATIENCE).unwrap();
    assert!(status.success(), "{status}");
    out.extend(arrived.iter().flatten());
    let contains = |needle: &[u8]| contains(&out, needle);
    assert!(contains(b"\ninfo string \xff\xfe not utf-8\n"));
    // "info string " + 1 MiB is past the 1 MiB line limit: reported, skipped.
    assert!(contains(
        b"\ninfo string uci960: engine line longer than 1048576 bytes skipped\n"
    ));
    assert!(!contains(&[b'x'; 1 << 16]), "no part of it relayed");
    assert!(contains(b"\ninfo depth 1 pv e2e4\r\n"), "CRLF kept");
    assert!(contains(b"\n\x00\x01 random bytes\n"));
    assert!(contains(b"\nbestmove 0000\n"), "invalid position answered");
    assert!(contains(b"\nbestmove e2e4\r\n"));
}

#[test]
fn wrong_castling_notation_is_corrected_and_illegal_moves_reported() {
    let (mut p, engine) = start_mock(&["--king-two-squares", "--illegal-move=2"], &[]);
    p.send("setoption name UCI_Chess960 value true");
    p.send("position fen 1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w HBhb - 0 1");
    p.send("go nodes 1");
    assert_eq!(p.wait_line("bestmove"), "bestmove e1b1");
    assert!(p.seen.iter().any(|l| l.contains("'e1c1'")), "{:?}", p.seen);
    p.send("go nodes 1");
    let warn = p.wait_for("illegal", |l| l.contains("illegal bestmove"));
    assert!(warn.contains("'e2e5'"), "{warn}");
    assert_eq!(
        p.wait_line("bestmove"),
        "bestmove e2e5",
        "passed on unchanged"
    );
    let (status, _, stderr) = p.finish();
    assert!(status.success());
    assert!(stderr.contains("illegal bestmove"), "{stderr}");
    assert!(gone_within(engine, common::PATIENCE));
}
