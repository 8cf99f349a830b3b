//! JUnit XML, the form CI systems (GitHub Actions test reporters, GitLab,
//! Jenkins) read: a [`TestSuites`] document of suites of cases, each case
//! passed, skipped (with the reason) or failed (message, type, text).
//!
//! The attributes are the ones the common JUnit schema (Apache Ant's, as
//! published by windyroad and used by Jenkins) requires: `testsuite` has
//! `name`, `tests`, `failures`, `errors`, `skipped`, `time`, `timestamp`,
//! `hostname`, `id` and `package`; `testcase` has `name`, `classname` and
//! `time`; `failure` has `message` and `type`. The counts are computed
//! here from the cases, so a document cannot contradict itself.

use std::fmt::Write as _;

/// The whole document: `<testsuites>`.
#[derive(Clone, Debug, PartialEq)]
pub struct TestSuites {
    pub name: String,
    pub suites: Vec<TestSuite>,
}

/// One `<testsuite>` (its `id` is its place in the document).
#[derive(Clone, Debug, PartialEq)]
pub struct TestSuite {
    pub name: String,
    pub package: String,
    pub hostname: String,
    /// `xs:dateTime` without a zone, as the schema's pattern wants.
    pub timestamp: String,
    pub seconds: f64,
    pub properties: Vec<(String, String)>,
    pub cases: Vec<TestCase>,
}

/// One `<testcase>`.
#[derive(Clone, Debug, PartialEq)]
pub struct TestCase {
    pub name: String,
    pub classname: String,
    pub seconds: f64,
    pub outcome: Outcome,
}

/// How a case ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Passed,
    Skipped {
        message: String,
    },
    Failed {
        message: String,
        kind: String,
        text: String,
    },
}

impl TestSuite {
    fn failures(&self) -> usize {
        let failed = |c: &&TestCase| matches!(c.outcome, Outcome::Failed { .. });
        self.cases.iter().filter(failed).count()
    }

    fn skipped(&self) -> usize {
        let skipped = |c: &&TestCase| matches!(c.outcome, Outcome::Skipped { .. });
        self.cases.iter().filter(skipped).count()
    }
}

/// The machine's name for `hostname` (the schema requires one).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// Now, as a `timestamp`.
pub fn timestamp_now() -> String {
    crate::utc::UtcTime::now()
        .rfc3339_micros()
        .chars()
        .take(19)
        .collect()
}

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

/// The XML text of `doc`.
pub fn render(doc: &TestSuites) -> String {
    let suites = &doc.suites;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3}\">",
        escape(&doc.name),
        suites.iter().map(|s| s.cases.len()).sum::<usize>(),
        suites.iter().map(TestSuite::failures).sum::<usize>(),
        suites.iter().map(TestSuite::skipped).sum::<usize>(),
        suites.iter().map(|s| s.seconds).sum::<f64>(),
    );
    for (id, s) in suites.iter().enumerate() {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" package=\"{}\" id=\"{id}\" hostname=\"{}\" timestamp=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3}\">",
            escape(&s.name),
            escape(&s.package),
            escape(&s.hostname),
            escape(&s.timestamp),
            s.cases.len(),
            s.failures(),
            s.skipped(),
            s.seconds
        );
        out.push_str("    <properties>\n");
        for (k, v) in &s.properties {
            let _ = writeln!(
                out,
                "      <property name=\"{}\" value=\"{}\"/>",
                escape(k),
                escape(v)
            );
        }
        out.push_str("    </properties>\n");
        for c in &s.cases {
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3}\"",
                escape(&c.name),
                escape(&c.classname),
                c.seconds
            );
            match &c.outcome {
                Outcome::Passed => out.push_str("/>\n"),
                Outcome::Skipped { message } => {
                    let _ = writeln!(
                        out,
                        ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                        escape(message)
                    );
                }
                Outcome::Failed {
                    message,
                    kind,
                    text,
                } => {
                    let _ = writeln!(
                        out,
                        ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                        escape(message),
                        escape(kind),
                        escape(text)
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

    #[test]
    fn counts_come_from_the_cases_and_each_outcome_has_its_element() {
        let case = |name: &str, outcome| TestCase {
            name: name.into(),
            classname: "suite.E<1>".into(),
            seconds: 0.25,
            outcome,
        };
        let doc = TestSuites {
            name: "all".into(),
            suites: vec![TestSuite {
                name: "E<1>".into(),
                package: "pkg".into(),
                hostname: "h".into(),
                timestamp: "2026-12-02T06:00:00".into(),
                seconds: 1.5,
                properties: vec![("depth".into(), "3".into())],
                cases: vec![
                    case("a", Outcome::Passed),
                    case(
                        "b",
                        Outcome::Skipped {
                            message: "no perft".into(),
                        },
                    ),
                    case(
                        "c",
                        Outcome::Failed {
                            message: "1 of 2\nfailed".into(),
                            kind: "wrong-answer".into(),
                            text: "got e1g1 & not e1h1".into(),
                        },
                    ),
                ],
            }],
        };
        let xml = render(&doc);
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"all\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"1.500\">\n"), "{xml}");
        assert!(xml.contains("<testsuite name=\"E&lt;1&gt;\" package=\"pkg\" id=\"0\" hostname=\"h\" timestamp=\"2026-12-02T06:00:00\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"1.500\">"), "{xml}");
        assert!(
            xml.contains("<property name=\"depth\" value=\"3\"/>"),
            "{xml}"
        );
        assert!(
            xml.contains("<testcase name=\"a\" classname=\"suite.E&lt;1&gt;\" time=\"0.250\"/>\n"),
            "{xml}"
        );
        assert!(
            xml.contains("<skipped message=\"no perft\"/>\n    </testcase>"),
            "{xml}"
        );
        assert!(xml.contains("<failure message=\"1 of 2&#10;failed\" type=\"wrong-answer\">got e1g1 &amp; not e1h1</failure>"), "{xml}");
        assert!(xml.ends_with("  </testsuite>\n</testsuites>\n"), "{xml}");
    }
}
