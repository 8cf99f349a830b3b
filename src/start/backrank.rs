//! A Chess960 back rank: eight pieces on files a..h, Scharnagl numbering in
//! both directions, and validation with errors that say what is wrong.
//!
//! ```
//! use uci960::start::BackRank;
//! let standard = BackRank::from_sp(518).unwrap();
//! assert_eq!(standard.to_string(), "RNBQKBNR");
//! assert_eq!(standard.sp(), 518);
//! assert_eq!("RNBQKBNR".parse::<BackRank>().unwrap(), standard);
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use shakmaty::{File, Role};

/// Number of Chess960 start positions.
pub const POSITIONS: u16 = 960;

/// Scharnagl's number of the standard chess position.
pub const STANDARD_SP: u16 = 518;

/// Where the two knights stand among the five squares left after bishops and
/// queen (Scharnagl's KRN table), indexed by the knight code 0..9.
const KNIGHT_TABLE: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The inverse of [`KNIGHT_TABLE`]: `KNIGHT_CODE[a][b]` is the code of the
/// pair (a, b), 10 (out of range) where no pair is.
const KNIGHT_CODE: [[u8; 5]; 5] = {
    let mut codes = [[10u8; 5]; 5];
    let mut code = 0;
    while code < KNIGHT_TABLE.len() {
        let (a, b) = KNIGHT_TABLE[code];
        codes[a][b] = code as u8;
        code += 1;
    }
    codes
};

/// The white pieces of a back rank, file a first. Always a valid Chess960
/// rank: the constructors check it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BackRank {
    roles: [Role; 8],
    /// Scharnagl's number, computed once at construction: every drawn
    /// position looks up its tables (Chess, FEN) by it.
    sp: u16,
}

/// Why a back rank is not a Chess960 start rank.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BackRankError {
    #[error("start position number {0} is out of range (0..959)")]
    SpOutOfRange(u32),
    #[error("start position number {0} is out of range (0..959)")]
    SpTooLarge(String),
    #[error("a back rank has 8 pieces, found {0}")]
    WrongLength(usize),
    #[error("'{piece}' on {square} is not a back-rank piece (use R, N, B, Q, K)")]
    UnknownPiece { piece: char, square: String },
    #[error("a back rank has {expected} {name}, found {found}")]
    WrongCount {
        name: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("bishops on {0} and {1} stand on the same colour")]
    BishopsSameColour(String, String),
    #[error("king on {king} is not between the rooks on {rook_a} and {rook_b}")]
    KingNotBetweenRooks {
        king: String,
        rook_a: String,
        rook_b: String,
    },
    #[error("{0} is not a white back rank (a1..h1 pieces all of one colour)")]
    NotABackRank(String),
}

fn square_name(file: usize, rank_char: char) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank_char)
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Rook => "rooks",
        Role::Knight => "knights",
        Role::Bishop => "bishops",
        Role::Queen => "queen",
        Role::King => "king",
        Role::Pawn => "pawns",
    }
}

impl BackRank {
    /// The back rank with Scharnagl number `sp` (0..959): a lookup in a
    /// table decoded once.
    pub fn from_sp(sp: u32) -> Result<BackRank, BackRankError> {
        static TABLE: OnceLock<Vec<BackRank>> = OnceLock::new();
        let table = TABLE.get_or_init(|| (0..usize::from(POSITIONS)).map(decode).collect());
        table
            .get(sp as usize)
            .copied()
            .ok_or(BackRankError::SpOutOfRange(sp))
    }

    /// Decodes `sp` by Scharnagl's arithmetic, without the table.
    pub fn decode_sp(sp: u32) -> Result<BackRank, BackRankError> {
        if sp >= u32::from(POSITIONS) {
            return Err(BackRankError::SpOutOfRange(sp));
        }
        Ok(decode(sp as usize))
    }
}

/// Scharnagl's decoding of `sp < 960`.
fn decode(sp: usize) -> BackRank {
    let mut slots: [Option<Role>; 8] = [None; 8];
    let light_bishop = sp % 4;
    let rest = sp / 4;
    let dark_bishop = rest % 4;
    let rest = rest / 4;
    let queen = rest % 6;
    let knights = rest / 6;
    slots[light_bishop * 2 + 1] = Some(Role::Bishop);
    slots[dark_bishop * 2] = Some(Role::Bishop);
    place_on_nth_empty(&mut slots, queen, Role::Queen);
    let (first, second) = KNIGHT_TABLE[knights];
    // The second knight's index counts the empty squares before the first
    // knight was placed, so place it first.
    place_on_nth_empty(&mut slots, second, Role::Knight);
    place_on_nth_empty(&mut slots, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_on_nth_empty(&mut slots, 0, role);
    }
    let mut roles = [Role::Pawn; 8];
    for (role, slot) in roles.iter_mut().zip(slots) {
        *role = slot.unwrap_or(Role::Pawn);
    }
    // Encoded back rather than set to `sp`, so that the round-trip test
    // checks the encoder.
    BackRank {
        roles,
        sp: scharnagl_number(&roles),
    }
}

impl BackRank {
    /// Checks eight roles (file a first) against the Chess960 rules.
    pub fn from_roles(roles: [Role; 8]) -> Result<BackRank, BackRankError> {
        // A valid rank is the one its number decodes to: one table lookup
        // decides the common case; `validate` names the fault otherwise.
        let sp = scharnagl_number(&roles);
        if let Ok(rank) = BackRank::from_sp(u32::from(sp))
            && rank.roles == roles
        {
            return Ok(rank);
        }
        validate(&roles, '1')?;
        Ok(BackRank { roles, sp })
    }

    /// The roles, file a first.
    pub fn roles(&self) -> [Role; 8] {
        self.roles
    }

    /// The role on `file`.
    pub fn role_at(&self, file: File) -> Role {
        self.roles[usize::from(file)]
    }

    /// Files of the two rooks, left one first.
    pub fn rook_files(&self) -> (File, File) {
        let mut files = (0..8).filter(|&i| self.roles[i] == Role::Rook);
        let a = files.next().unwrap_or(0);
        let b = files.next().unwrap_or(7);
        (File::new(a as u32), File::new(b as u32))
    }

    /// File of the king.
    pub fn king_file(&self) -> File {
        let i = self
            .roles
            .iter()
            .position(|&r| r == Role::King)
            .unwrap_or(4);
        File::new(i as u32)
    }

    /// Scharnagl's number of this rank.
    pub fn sp(&self) -> u16 {
        self.sp
    }

    /// Whether this is the standard chess rank RNBQKBNR.
    pub fn is_standard(&self) -> bool {
        self.sp() == STANDARD_SP
    }
}

/// Scharnagl's number of a valid rank, from bit masks of the files each
/// role stands on (no search of the table of knight pairs): every drawn
/// position is numbered, so this is on the drawing path.
fn scharnagl_number(roles: &[Role; 8]) -> u16 {
    let mut masks = [0u32; 7];
    for (file, &role) in roles.iter().enumerate() {
        masks[role as usize] |= 1 << file;
    }
    let bishops = masks[Role::Bishop as usize];
    let queen = masks[Role::Queen as usize];
    let knights = masks[Role::Knight as usize];
    // Bishops: file index among the light (b, d, f, h) and dark (a, c, e, g)
    // files; a missing bishop (invalid rank) gives an out-of-range number.
    let light = (bishops & 0xAA).trailing_zeros() / 2;
    let dark = (bishops & 0x55).trailing_zeros() / 2;
    // Queen: index among the six squares the bishops left.
    let free = !bishops & 0xFF;
    let below = |bit: u32| (free & bit.wrapping_sub(1)).count_ones();
    let queen_index = below(queen & queen.wrapping_neg());
    // Knights: indices among the five squares bishops and queen left.
    let free = free & !queen;
    let among = |bit: u32| (free & bit.wrapping_sub(1)).count_ones() as usize;
    let first = knights & knights.wrapping_neg();
    let second = knights & !first;
    let (a, b) = (among(first), among(second & second.wrapping_neg()));
    // Not two knights (an invalid rank): code 10, numbered out of range.
    let knight_code = KNIGHT_CODE
        .get(a)
        .and_then(|row| row.get(b))
        .map_or(10, |&code| u32::from(code));
    let number = ((knight_code * 6 + queen_index) * 4 + dark) * 4 + light;
    number.min(u32::from(u16::MAX)) as u16
}

fn place_on_nth_empty(slots: &mut [Option<Role>; 8], n: usize, role: Role) {
    if let Some(slot) = slots.iter_mut().filter(|s| s.is_none()).nth(n) {
        *slot = Some(role);
    }
}

/// Validates a rank of roles; `rank_char` names the rank in messages.
pub(crate) fn validate(roles: &[Role; 8], rank_char: char) -> Result<(), BackRankError> {
    for (role, expected) in [
        (Role::Rook, 2),
        (Role::Knight, 2),
        (Role::Bishop, 2),
        (Role::Queen, 1),
        (Role::King, 1),
        (Role::Pawn, 0),
    ] {
        let found = roles.iter().filter(|&&r| r == role).count();
        if found != expected {
            return Err(BackRankError::WrongCount {
                name: role_name(role),
                expected,
                found,
            });
        }
    }
    let files_of = |role: Role| {
        let mut files = [0usize; 2];
        for (slot, (file, _)) in files
            .iter_mut()
            .zip(roles.iter().enumerate().filter(|(_, r)| **r == role))
        {
            *slot = file;
        }
        files
    };
    let bishops = files_of(Role::Bishop);
    if bishops[0] % 2 == bishops[1] % 2 {
        return Err(BackRankError::BishopsSameColour(
            square_name(bishops[0], rank_char),
            square_name(bishops[1], rank_char),
        ));
    }
    let rooks = files_of(Role::Rook);
    let king = roles.iter().position(|&r| r == Role::King).unwrap_or(0);
    if !(rooks[0] < king && king < rooks[1]) {
        return Err(BackRankError::KingNotBetweenRooks {
            king: square_name(king, rank_char),
            rook_a: square_name(rooks[0], rank_char),
            rook_b: square_name(rooks[1], rank_char),
        });
    }
    Ok(())
}

/// Reads one back-rank letter (either case), `None` if it is no piece.
pub(crate) fn role_of_letter(c: char) -> Option<Role> {
    Role::from_char(c.to_ascii_lowercase())
}

impl FromStr for BackRank {
    type Err = BackRankError;

    /// Parses eight piece letters such as `RNBQKBNR` (either case).
    fn from_str(s: &str) -> Result<BackRank, BackRankError> {
        let chars: Vec<char> = s.trim().chars().collect();
        if chars.len() != 8 {
            return Err(BackRankError::WrongLength(chars.len()));
        }
        let mut roles = [Role::Pawn; 8];
        for (i, &c) in chars.iter().enumerate() {
            roles[i] = role_of_letter(c).ok_or_else(|| BackRankError::UnknownPiece {
                piece: c,
                square: square_name(i, '1'),
            })?;
        }
        BackRank::from_roles(roles)
    }
}

impl fmt::Display for BackRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for role in self.roles {
            write!(f, "{}", role.upper_char())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_round_trips() {
        for sp in 0..u32::from(POSITIONS) {
            let rank = BackRank::from_sp(sp).unwrap();
            assert_eq!(rank, BackRank::decode_sp(sp).unwrap());
            assert_eq!(u32::from(rank.sp()), sp);
            assert_eq!(rank.to_string().parse::<BackRank>().unwrap(), rank);
        }
    }

    #[test]
    fn out_of_range_is_an_error() {
        assert_eq!(
            BackRank::from_sp(960),
            Err(BackRankError::SpOutOfRange(960))
        );
    }

    #[test]
    fn every_arrangement_of_the_eight_pieces_is_judged_like_validate() {
        // All 5,040 orders of RRNNBBQK: the fast path (number, then decode
        // and compare) must accept exactly what the rule-by-rule check does.
        let mut valid = 0;
        for code in 0..8u32.pow(8) {
            let files: Vec<usize> = (0..8).map(|i| (code / 8u32.pow(i) % 8) as usize).collect();
            let mut roles = [Role::Pawn; 8];
            let pieces = [
                Role::Rook,
                Role::Rook,
                Role::Knight,
                Role::Knight,
                Role::Bishop,
                Role::Bishop,
                Role::Queen,
                Role::King,
            ];
            for (&file, &role) in files.iter().zip(&pieces) {
                roles[file] = role;
            }
            if roles.contains(&Role::Pawn) {
                continue;
            }
            let fast = BackRank::from_roles(roles);
            assert_eq!(fast.is_ok(), validate(&roles, '1').is_ok(), "{roles:?}");
            if let Ok(rank) = fast {
                valid += 1;
                assert_eq!(rank.roles(), roles);
                assert_eq!(BackRank::decode_sp(u32::from(rank.sp())), Ok(rank));
            }
        }
        // Each of the 960 arises 8 times (2! for each pair of like pieces).
        assert_eq!(valid, 960 * 8);
    }

    #[test]
    fn errors_name_the_problem() {
        let err = "RNBQKNBR".parse::<BackRank>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "bishops on c1 and g1 stand on the same colour"
        );
        let err = "KRBQRBNN".parse::<BackRank>().unwrap_err();
        assert!(
            err.to_string().contains("king on a1 is not between"),
            "{err}"
        );
        let err = "RNBQKBN".parse::<BackRank>().unwrap_err();
        assert_eq!(err, BackRankError::WrongLength(7));
        let err = "RNBQKBNX".parse::<BackRank>().unwrap_err();
        assert!(err.to_string().contains("'X' on h1"), "{err}");
        let err = "RNBQKBNN".parse::<BackRank>().unwrap_err();
        assert!(err.to_string().contains("2 rooks, found 1"), "{err}");
    }
}
