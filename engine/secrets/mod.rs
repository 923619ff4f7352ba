//! The secret values the engine knows, and their masking.
//!
//! An operator hands codemode credentials in two files: the `${NAME}` expansions of
//! `.codemode/mcp.json` (in a server's `env`, `headers`, `url`, `command`, `args` or
//! `cwd`) and the headers of `.codemode/http.json`. Each value is [`remember`]ed when its
//! file is read, into one set for the whole process, and never forgotten. Every text that
//! leaves the engine passes through [`mask`] at one of a few choke points: the values the
//! `http` and upstream capabilities hand a script, the envelope, the warnings and hints
//! the configuration produces, a server's stderr tail, and the log writer. A new path to
//! the outside goes through one of them, so it cannot forget to mask.
//!
//! A value is masked in whole and in its parts (the token of `Bearer TOKEN`; for `Basic`,
//! the decoded `user:password`, the user and the password), each in the encodings a
//! server or a script's transforms commonly produce: base64 (standard and URL-safe, with
//! or without padding, at any alignment inside a longer base64 text), percent-encoding
//! (minimal or every byte, either hex case, `+` for a space), hex and JSON escaping. A
//! value shorter than [`forms::MIN_SECRET_LEN`] bytes is not masked: `"1"` or `"true"` is a
//! setting, and masking it would garble every text holding the letter.
//!
//! Masking is one pass over the text, whatever the number of forms (Aho-Corasick,
//! leftmost-longest, so a form containing another is masked whole).

mod expand;
mod forms;
mod set;

pub(crate) use expand::expand;
pub(crate) use set::{mask, mask_bytes, mask_json, remember};
