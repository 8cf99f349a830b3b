//! How Chess960 back ranks are drawn: every random procedure of the
//! design, one file each ([`die`], [`bag_redraw`], [`bag_swap`],
//! [`uniform`] for `random` and `dfrc`), behind one [`RandomMethod`].
//! Which method a user names, fixed lists, books and the stream of
//! positions live one floor up, in [`crate::openings`].
//!
//! Randomness is ChaCha8 seeded from a `u64`; 32-bit words are mapped to
//! choices by rejection ([`procedure::uniform_below`]), so a seed gives the
//! same positions on every platform and with every `rand` version.

mod bag;
pub mod bag_redraw;
pub mod bag_swap;
pub mod die;
pub mod procedure;
pub mod rank_fix;
pub mod uniform;

use std::sync::OnceLock;

use rand_chacha::ChaCha8Rng;

use crate::notation::fen::FenFlavour;
use crate::start::{POSITIONS, StartPosition};
use procedure::{Procedure, Run};

/// The random procedures, as one type: a value picks its method once, and
/// [`RandomMethod::sample`] runs that method's own compiled draw loop.
#[derive(Clone, Copy, Debug)]
pub enum RandomMethod {
    Die(die::Die),
    BagRedraw(bag_redraw::BagRedraw),
    BagSwap(bag_swap::BagSwap),
    Uniform(uniform::Uniform),
}

/// Calls `$body` with `$p` bound to the concrete procedure.
macro_rules! with_procedure {
    ($method:expr, $p:ident => $body:expr) => {
        match $method {
            RandomMethod::Die($p) => $body,
            RandomMethod::BagRedraw($p) => $body,
            RandomMethod::BagSwap($p) => $body,
            RandomMethod::Uniform($p) => $body,
        }
    };
}

impl RandomMethod {
    /// Samples one run.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Run {
        with_procedure!(self, p => procedure::sample(p, rng))
    }
}

impl Procedure for RandomMethod {
    fn start(&self) -> procedure::DrawState {
        with_procedure!(self, p => p.start())
    }
    fn event(&self, state: &procedure::DrawState) -> Option<procedure::Event> {
        with_procedure!(self, p => p.event(state))
    }
    fn finish(&self, state: &procedure::DrawState) -> (StartPosition, procedure::Notes) {
        with_procedure!(self, p => p.finish(state))
    }
    fn apply(&self, state: &mut procedure::DrawState, label: u16) -> procedure::Transition {
        with_procedure!(self, p => p.apply(state, label))
    }
    fn describe(&self, state: &procedure::DrawState) -> String {
        with_procedure!(self, p => p.describe(state))
    }
}

/// FEN of a mirrored start position, computed once per number and flavour.
pub fn cached_fen(sp: u16, flavour: FenFlavour) -> &'static str {
    static TABLE: OnceLock<Vec<[String; 2]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..u32::from(POSITIONS))
            .map(|n| {
                let start = StartPosition::from_sp(n).unwrap_or_else(|_| unreachable!());
                [start.fen(FenFlavour::XFen), start.fen(FenFlavour::Shredder)]
            })
            .collect()
    });
    let i = match flavour {
        FenFlavour::XFen => 0,
        FenFlavour::Shredder => 1,
    };
    &table[usize::from(sp) % table.len()][i]
}
