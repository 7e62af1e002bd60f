//! Why a job started when it did: the reason a policy states with its start decision
//! ([`super::Ctx::start_as`]), checked and recorded by the engine ([`super::JobRecord::reason`]).
//!
//! One byte per job: the built-in reasons, or the index of a policy's own word (a custom rule's,
//! e.g. a JavaScript policy's), kept once per schedule ([`super::Schedule::reason_words`]).
#![warn(missing_docs)]

use crate::quote::quote;
use serde::{Serialize, Serializer};

/// How a job's (final) start came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StartReason {
    /// Not started (yet).
    #[default]
    None,
    /// In queue order: every job ahead of it in the policy's order had started when it fit.
    Head,
    /// Ahead of an earlier waiting job (in the policy's order), ending by that job's reservation.
    Backfilled,
    /// Ahead of an earlier waiting job, on the processors its reservation leaves over (EASY's
    /// extra processors at the shadow time).
    Extra,
    /// At its conservative reservation, after waiting for it.
    Reserved,
    /// After a preemption: its earlier attempt was killed (PV-EASY's shadow-load preemption).
    Restarted,
    /// At its recorded start (or as soon as it fit after it): the trace's own schedule.
    Replay,
    /// On idle processors, past the blocked head's reservation (PV-EASY's step 4: the head is
    /// protected by shadow-load preemption, not by the reservation).
    Venture,
    /// Started while an earlier-arrived job was waiting, by a policy that stated no reason (the
    /// default of [`super::Ctx::start`] and [`super::Ctx::start_with`]; without an earlier job
    /// waiting the default is [`StartReason::Head`]).
    Ahead,
    /// A policy's own word: index into [`super::Schedule::reason_words`].
    Word(u8),
}

/// The built-in reasons with their words (the `start_reason` column of the jobs CSV).
pub const BUILT_IN: [(StartReason, &str); 8] = [
    (StartReason::Head, "head"),
    (StartReason::Backfilled, "backfilled"),
    (StartReason::Extra, "extra"),
    (StartReason::Reserved, "reserved"),
    (StartReason::Restarted, "restarted"),
    (StartReason::Replay, "replay"),
    (StartReason::Venture, "venture"),
    (StartReason::Ahead, "ahead"),
];

/// Most distinct words one simulation may use.
pub const MAX_WORDS: usize = 200;
/// Longest word.
pub const MAX_WORD_LEN: usize = 24;

impl StartReason {
    /// The reason's word (`""` for [`StartReason::None`]); `words` resolves a policy's own word.
    pub fn word(self, words: &[String]) -> &str {
        match self {
            StartReason::None => "",
            StartReason::Word(i) => words.get(usize::from(i)).map_or("", String::as_str),
            r => BUILT_IN
                .iter()
                .find(|(b, _)| *b == r)
                .map_or("", |(_, w)| w),
        }
    }

    /// The built-in reason with this word.
    pub fn built_in(word: &str) -> Option<StartReason> {
        BUILT_IN.iter().find(|(_, w)| *w == word).map(|(r, _)| *r)
    }

    /// A small number per reason for typed arrays: 0 none, 1-8 the built-in reasons in
    /// [`BUILT_IN`] order, 16 + i a policy's word i.
    pub fn code(self) -> u16 {
        match self {
            StartReason::None => 0,
            StartReason::Word(i) => 16 + u16::from(i),
            r => BUILT_IN
                .iter()
                .position(|(b, _)| *b == r)
                .map_or(0, |p| p as u16 + 1),
        }
    }
}

/// Checks a policy's own word: 1 to [`MAX_WORD_LEN`] lowercase letters, digits or `-`, starting
/// with a letter.
pub fn check_word(word: &str) -> Result<(), String> {
    let ok = !word.is_empty()
        && word.len() <= MAX_WORD_LEN
        && word.as_bytes()[0].is_ascii_lowercase()
        && word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "start reason {}: 1 to {MAX_WORD_LEN} lowercase letters, digits or '-', starting with a letter", quote(word)
        ))
    }
}

impl Serialize for StartReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            StartReason::Word(i) => s.serialize_str(&format!("word{i}")),
            r => s.serialize_str(r.word(&[])),
        }
    }
}
