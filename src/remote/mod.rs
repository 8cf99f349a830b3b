//! The remote-engine link shared by both ends: `uci960 serve` (the server,
//! [`crate::serve`]) and `uci960 proxy --remote` (the client,
//! [`client`]). TLS through rustls with the ring provider; everything that
//! decides something is sans-IO and unit-tested here:
//! * [`address`] — `uci960s://HOST:PORT/NAME`;
//! * [`fingerprint`] — SHA-256 of a certificate, written `SHA256:…` as ssh
//!   writes key fingerprints;
//! * [`known_hosts`] — trust on first use, as ssh's `known_hosts`;
//! * [`token`] — token hashes and their constant-time comparison;
//! * [`hello`] — the one line a client sends after the TLS handshake (engine
//!   name and token) and the server's answer;
//! * [`tls`] — the rustls configurations and the self-signed pair;
//! * [`link`] — one TLS stream shared by a reading and a writing thread,
//!   with deadlines on every wait.
//!
//! The UCI lines themselves travel unchanged after the hello: the wire is
//! UCI over TLS, so a transcript is readable and every proxy feature stays
//! on the client side.

pub mod address;
pub mod client;
pub mod fingerprint;
pub mod hello;
pub mod known_hosts;
pub mod link;
pub mod tls;
pub mod token;

pub use address::RemoteAddress;
pub use fingerprint::Fingerprint;
