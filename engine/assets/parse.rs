//! Parsing Luau source with `full_moon`, guarded.
//!
//! `full_moon` has no depth limit of its own: it recurses once per nesting level while
//! parsing, and the tree it builds is as deep as the source's longest operator chain
//! (`a + b + c ...` nests to the left, `T???` nests optionals), so walking or dropping it
//! recurses as deep again. A stack overflow aborts the whole process, and a panic inside
//! the parser (it has `unreachable!()`s that hostile source can reach) would unwind into
//! the engine. Every parse in the engine goes through [`parse_luau`], which
//!
//! 1. estimates, from tokens alone (the tokenizer does not recurse), how deep the parse
//!    and the tree can go, and refuses sources past [`MAX_DEPTH`] without parsing;
//! 2. parses on the indexing threads, whose stacks are sized for [`MAX_DEPTH`];
//! 3. turns a panic inside `full_moon` into an error on that one source.

use std::panic::{catch_unwind, AssertUnwindSafe};

use full_moon::ast::Ast;
use full_moon::tokenizer::{InterpolatedStringKind, Lexer, LexerResult, Symbol, TokenType};
use full_moon::LuaVersion;

/// Stack for the threads that parse tools: `full_moon` recurses deeply (a debug build
/// spends up to 256 KiB a level, so [`MAX_DEPTH`] levels need about 50 MiB), and a
/// stack overflow aborts the whole process. Only the pages a parse touches are used.
const PARSE_STACK_BYTES: usize = 256 << 20;

/// The thread pool that reads tools, with stacks big enough for the parser.
pub(crate) fn parse_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .stack_size(PARSE_STACK_BYTES)
            .thread_name(|i| format!("codemode-index-{i}"))
            .build()
            .expect("cannot start the indexing threads")
    })
}

/// Sources whose parse could nest deeper than this are refused without parsing. Code
/// written by people stays far below (a deep tool file nests about 20 levels).
pub(crate) const MAX_DEPTH: usize = 200;

/// Sources whose estimate stays under this are parsed on the calling thread: a hop to
/// the indexing threads would cost more, and in a one-shot run the first hop starts them.
/// Every bundled tool is under it (the deepest, 18). In a release build a parse takes
/// about 40 KiB of stack a level of the estimate (one of 28 fits in 1 MiB, of 52 in 2
/// MiB), so this one stays under 1 MiB, within the 2 MiB a spawned thread gets by
/// default. An unoptimised build's parser frames are about ten times larger (one such
/// parse overflowed a 2 MiB test thread), so there every parse goes to the indexing
/// threads.
const INLINE_DEPTH: usize = 20;

/// Whether this build's parser frames are small enough to parse in place at all.
const PARSES_IN_PLACE: bool = !cfg!(debug_assertions);

/// The smallest stack a thread that parses may have: Rust's default for spawned threads.
#[cfg(test)]
const SMALLEST_CALLER_STACK: usize = 2 << 20;

/// Why a source could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum ParseError {
    /// The source is not valid Luau as `full_moon` reads it (`line N: ...`).
    #[error("line {line}: {message}")]
    Syntax {
        /// Where the first problem is.
        line: usize,
        /// What it is.
        message: String,
    },
    /// The source nests deeper than the guard allows; it was not parsed.
    #[error("nested deeper than {0} levels (brackets, blocks, operator or `?` chains), too deep to read; split the expression or type into smaller ones")]
    TooDeep(usize),
    /// The parser panicked on this source.
    #[error("the Luau parser failed on this source (an unusual character or construct); simplify the line it is on")]
    ParserFailed,
}

impl ParseError {
    /// True when the engine refused to read the source, rather than finding it invalid:
    /// Luau itself may still accept it, but nothing can be learnt from it.
    pub(crate) fn is_unreadable(&self) -> bool {
        !matches!(self, ParseError::Syntax { .. })
    }
}

/// Parses `source` as Luau and hands the tree to `read`, both on a thread whose stack
/// holds [`MAX_DEPTH`] levels; the tree is dropped there too. Errors say where the first
/// problem is (`line N: ...`), that the source nests too deeply to read, or that the
/// parser failed on it.
pub(crate) fn with_luau<T: Send>(
    source: &str,
    read: impl FnOnce(&Ast) -> T + Send,
) -> Result<T, ParseError> {
    with_luau_within(source, MAX_DEPTH, read)
}

/// [`with_luau`] with a tighter depth limit, for text that is never more than a type.
pub(crate) fn with_luau_within<T: Send>(
    source: &str,
    max_depth: usize,
    read: impl FnOnce(&Ast) -> T + Send,
) -> Result<T, ParseError> {
    let depth = guarded(|| depth_estimate(source))?;
    if depth > max_depth {
        return Err(ParseError::TooDeep(max_depth));
    }
    let parse = || guarded(|| parse_unguarded(source).map(|ast| read(&ast)))?;
    if PARSES_IN_PLACE && depth <= INLINE_DEPTH {
        parse()
    } else {
        parse_pool().install(parse)
    }
}

fn parse_unguarded(source: &str) -> Result<Ast, ParseError> {
    let parsed = full_moon::parse_fallible(source, LuaVersion::luau());
    match parsed.errors().first() {
        Some(error) => Err(ParseError::Syntax {
            line: error.range().0.line(),
            message: error.error_message().to_string(),
        }),
        None => Ok(parsed.into_ast()),
    }
}

/// Runs `f`, turning a panic inside it into an error.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, ParseError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| ParseError::ParserFailed)
}

/// What opened a nesting level, so that a closer only ends the level it can end.
#[derive(Clone, Copy, PartialEq)]
enum Opener {
    Paren,
    Brace,
    Bracket,
    /// `function`, a statement `if`, `do`: closed by `end`.
    Block,
    /// `repeat`: closed by `until`.
    Repeat,
    /// `` `text{ ``: closed by `` }text` ``.
    Interpolation,
}

/// One open nesting level and the operator chain running inside it.
struct Level {
    opener: Opener,
    /// Operators (and `if` expressions) since the last token that ends an expression here.
    chain: usize,
    /// `if` expressions in the chain: their `then` and `else` do not end the chain.
    if_expressions: usize,
}

impl Level {
    fn new(opener: Opener) -> Level {
        Level {
            opener,
            chain: 0,
            if_expressions: 0,
        }
    }
}

/// An upper bound on how deep `full_moon` recurses on `source` and how deep the tree it
/// builds is: every open bracket, block or interpolation adds one, and so does every
/// operator (binary, unary, `?`, `->`, generic `<`) and every `if` expression since the
/// last token that ends an expression at that level (`,`, `;`, `=`, a statement keyword).
/// Over-counting only makes the guard stricter.
fn depth_estimate(source: &str) -> usize {
    let mut levels = vec![Level::new(Opener::Block)];
    let mut depth = 0usize;
    let mut deepest = 0usize;
    // Whether the last token leaves an expression to come (so an `if` here is one).
    let mut expecting = false;
    let mut lexer = Lexer::new_lazy(source, LuaVersion::luau());
    // The lexer always advances, but a bound keeps a lexer bug from looping forever.
    for _ in 0..=source.len() + 1 {
        let token = match lexer.process_next() {
            None => break,
            Some(LexerResult::Ok(token) | LexerResult::Recovered(token, _)) => token,
            Some(LexerResult::Fatal(_)) => continue,
        };
        let mut expects_next = false;
        match token.token_type() {
            TokenType::Eof => break,
            TokenType::Whitespace { .. }
            | TokenType::SingleLineComment { .. }
            | TokenType::MultiLineComment { .. }
            | TokenType::Shebang { .. } => continue,
            TokenType::Symbol { symbol } => {
                let top = levels.len() - 1;
                let step = match symbol {
                    Symbol::If if expecting => Step::Chain,
                    Symbol::Then | Symbol::Else | Symbol::ElseIf
                        if levels[top].if_expressions > 0 =>
                    {
                        Step::Neutral
                    }
                    other => step(*other),
                };
                match step {
                    Step::Open(opener) => {
                        levels.push(Level::new(opener));
                        depth += 1;
                    }
                    Step::Close(closes) => depth -= close(&mut levels, closes),
                    Step::Chain => {
                        levels[top].chain += 1;
                        levels[top].if_expressions += usize::from(*symbol == Symbol::If);
                        depth += 1;
                    }
                    Step::Reset => {
                        depth -= levels[top].chain;
                        levels[top].chain = 0;
                        levels[top].if_expressions = 0;
                    }
                    Step::Neutral => {}
                }
                expects_next = expects_expression(*symbol)
                    || (matches!(symbol, Symbol::Then | Symbol::Else | Symbol::ElseIf)
                        && levels.last().is_some_and(|l| l.if_expressions > 0));
            }
            TokenType::InterpolatedString { kind, .. } => match kind {
                InterpolatedStringKind::Begin => {
                    levels.push(Level::new(Opener::Interpolation));
                    depth += 1;
                    expects_next = true;
                }
                InterpolatedStringKind::Middle => expects_next = true,
                InterpolatedStringKind::End => {
                    depth -= close(&mut levels, &[Opener::Interpolation])
                }
                InterpolatedStringKind::Simple => {}
            },
            _ => {}
        }
        expecting = expects_next;
        deepest = deepest.max(depth);
    }
    deepest
}

/// Operators of values: each one in a chain nests the parse or the tree one level.
fn is_operator(symbol: Symbol) -> bool {
    use Symbol as S;
    matches!(
        symbol,
        S::And
            | S::Or
            | S::Not
            | S::Plus
            | S::Minus
            | S::Star
            | S::Slash
            | S::DoubleSlash
            | S::Percent
            | S::Caret
            | S::TwoDots
            | S::Hash
            | S::TwoEqual
            | S::TildeEqual
            | S::LessThan
            | S::LessThanEqual
            | S::GreaterThan
            | S::GreaterThanEqual
    )
}

/// `=` and the compound assignments (`+=`, `..=`, ...).
fn is_assignment(symbol: Symbol) -> bool {
    use Symbol as S;
    matches!(
        symbol,
        S::Equal
            | S::PlusEqual
            | S::MinusEqual
            | S::StarEqual
            | S::SlashEqual
            | S::DoubleSlashEqual
            | S::PercentEqual
            | S::CaretEqual
            | S::TwoDotsEqual
    )
}

/// Whether an expression must follow `symbol`, so that an `if` after it is an `if`
/// expression, which no `end` closes.
fn expects_expression(symbol: Symbol) -> bool {
    use Symbol as S;
    is_operator(symbol)
        || is_assignment(symbol)
        || matches!(
            symbol,
            S::LeftParen
                | S::LeftBracket
                | S::LeftBrace
                | S::Comma
                | S::Return
                | S::In
                | S::Until
                | S::While
                | S::If
        )
}

/// What one symbol does to the estimate.
enum Step {
    Open(Opener),
    Close(&'static [Opener]),
    Chain,
    Reset,
    Neutral,
}

fn step(symbol: Symbol) -> Step {
    use Symbol as S;
    match symbol {
        S::LeftParen => Step::Open(Opener::Paren),
        S::LeftBrace => Step::Open(Opener::Brace),
        S::LeftBracket => Step::Open(Opener::Bracket),
        S::Function | S::If | S::Do => Step::Open(Opener::Block),
        S::Repeat => Step::Open(Opener::Repeat),
        S::RightParen => Step::Close(&[Opener::Paren]),
        S::RightBrace => Step::Close(&[Opener::Brace]),
        S::RightBracket => Step::Close(&[Opener::Bracket]),
        S::End => Step::Close(&[Opener::Block]),
        S::Until => Step::Close(&[Opener::Repeat]),
        s if is_assignment(s) => Step::Reset,
        S::Comma
        | S::Semicolon
        | S::Local
        | S::Return
        | S::Then
        | S::Else
        | S::ElseIf
        | S::In
        | S::Break
        | S::For
        | S::While => Step::Reset,
        s if is_operator(s) => Step::Chain,
        // Type operators: `T?`, unions, intersections, function types, casts.
        S::QuestionMark | S::Pipe | S::Ampersand | S::ThinArrow | S::TwoColons => Step::Chain,
        _ => Step::Neutral,
    }
}

/// Closes the innermost level one of `closes` opened, with every level opened inside it.
/// A closer with nothing to close changes nothing. Returns how much the depth fell.
fn close(levels: &mut Vec<Level>, closes: &[Opener]) -> usize {
    // Level 0 stands for the whole source and is never closed.
    let Some(at) = levels
        .iter()
        .skip(1)
        .rposition(|l| closes.contains(&l.opener))
        .map(|i| i + 1)
    else {
        return 0;
    };
    levels.drain(at..).map(|l| 1 + l.chain).sum()
}

#[cfg(test)]
#[path = "../../tests/unit/assets/parse.rs"]
mod tests;
