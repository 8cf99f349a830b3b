//! JSON, in the two forms the tool writes: a whole file (indented, ending
//! in a line break: `match --json`, `castling-test --json`, `merge --json`)
//! and one object a line (`positions --format json`, for `jq` and
//! streaming readers). The document is a `serde_json::Value`, built by the
//! application from its serde types.

use serde_json::Value;

use super::destination::{Destination, WriteError};

/// The file form: indented by two, with a final line break.
pub fn pretty(value: &Value) -> String {
    // Serializing a `Value` cannot fail (its keys are strings); the compact
    // form is the fallback should serde ever say otherwise.
    let mut text = serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string());
    text.push('\n');
    text
}

/// Writes `value` in the file form to `to` (a file is replaced whole and
/// atomically: a reader polling it sees the old document or the new one,
/// never an empty file).
pub fn write(to: &Destination, value: &Value) -> Result<(), WriteError> {
    to.write(&pretty(value))
}

/// Appends the line form: `value` on one line and a line break.
pub fn line(value: &Value, out: &mut String) {
    out.push_str(&value.to_string());
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_written_is_an_error_naming_it() {
        let to = Destination::file("JSON file", "/dev/full");
        let err = write(&to, &serde_json::json!({})).unwrap_err().to_string();
        assert!(err.contains("/dev/full"), "{err}");
    }

    #[test]
    fn the_file_form_is_indented_and_ends_a_line() {
        let v = serde_json::json!({"games": 2, "engines": ["A"]});
        assert_eq!(
            pretty(&v),
            "{\n  \"engines\": [\n    \"A\"\n  ],\n  \"games\": 2\n}\n"
        );
    }

    #[test]
    fn the_line_form_is_one_line() {
        let mut out = String::from("x\n");
        line(&serde_json::json!({"fen": "a\nb", "sp": null}), &mut out);
        assert_eq!(out, "x\n{\"fen\":\"a\\nb\",\"sp\":null}\n");
    }
}
