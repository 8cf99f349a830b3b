//! `uci960 proxy` driven as a raw client (on the shared test client,
//! [`common::Client`]), and the process helpers the proxy tests use.
#![allow(dead_code)]

use std::ops::{Deref, DerefMut};
use std::process::{Command, ExitStatus};

use crate::common::{self, Client, OnDrop};

pub use crate::common::{alive, children_of, gone_within, wait_exit};

/// A running `uci960 proxy`; dropping it kills the proxy.
pub struct Proxy(Client);

impl Proxy {
    /// `uci960 proxy ARGS...` with stderr captured.
    pub fn start(args: &[&str]) -> Proxy {
        let mut cmd = Command::new(common::uci960());
        cmd.arg("proxy").args(args);
        Proxy(Client::spawn(cmd, true, OnDrop::Kill))
    }

    /// Closes stdin and waits for the exit: status, stdout lines, stderr.
    pub fn finish(self) -> (ExitStatus, Vec<String>, String) {
        self.0.finish()
    }
}

impl Deref for Proxy {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.0
    }
}

impl DerefMut for Proxy {
    fn deref_mut(&mut self) -> &mut Client {
        &mut self.0
    }
}
