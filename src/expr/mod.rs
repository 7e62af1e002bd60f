//! Priority expressions: a queue order written as a formula over what a scheduler knows of a
//! waiting job (`easy[queue=expr(-wait/requested)]`), smallest value first.
//!
//! The language: numbers (`12`, `0.5`, `1e-3`), the variables of [`Var`], `+ - * / ^`,
//! parentheses, unary minus, and the functions of [`Func`]. Values are doubles with IEEE
//! semantics: a division by zero gives an infinity (ordered like any value) or NaN (`0/0`),
//! and the queue order puts NaN after every number, ties by arrival. An expression is parsed
//! once into postfix code ([`Expr`]); evaluation is a loop over that code with a stack the
//! caller keeps, so it cannot recurse, allocate per job, or run long. Constant parts are folded
//! at parse time and `x^n` with a small whole constant `n` is a chain of multiplications.
//! Logarithms, `exp` and `pow` come from the `libm` crate, so a schedule is the same natively
//! and in wasm32 (the platforms' own maths libraries may differ in the last bit). Written by hand rather
//! than with an expression crate: the crates we looked at (exmex, fasteval, evalexpr, meval)
//! either lack two-argument functions written `min(a, b)`, report errors without a position,
//! evaluate by variable-name lookups, or are no longer maintained.

mod lexer;
mod parse;
mod presets;

pub use presets::{preset, Preset, PRESETS};

use std::fmt;

/// Longest expression accepted (expressions arrive in links and specs).
pub const MAX_LEN: usize = 400;
/// Deepest nesting of parentheses, unary signs and powers accepted.
pub const MAX_DEPTH: usize = 32;

/// A variable: what the scheduler knows of a waiting job at a scheduling pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    /// Seconds waited so far (now - submit).
    Wait,
    /// The planning length: the policy's estimate (the requested time by default).
    Estimate,
    /// The requested time (the planning estimate where the trace has none).
    Requested,
    /// Processors requested.
    Procs,
    /// Submit time, seconds from the time origin.
    Submit,
    /// The user's id in the trace.
    User,
    /// The time of the pass, seconds from the time origin.
    Now,
}

impl Var {
    pub const ALL: [Var; 7] = [
        Var::Wait,
        Var::Estimate,
        Var::Requested,
        Var::Procs,
        Var::Submit,
        Var::User,
        Var::Now,
    ];
    pub const NAMES: [&'static str; 7] = [
        "wait",
        "estimate",
        "requested",
        "procs",
        "submit",
        "user",
        "now",
    ];

    fn by_name(name: &str) -> Option<Var> {
        Var::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Var::ALL[i])
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The values of the variables for one job at one pass, indexed like [`Var::ALL`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Vars(pub [f64; 7]);

impl Vars {
    pub fn new(
        wait: f64,
        estimate: f64,
        requested: f64,
        procs: f64,
        submit: f64,
        user: f64,
        now: f64,
    ) -> Vars {
        Vars([wait, estimate, requested, procs, submit, user, now])
    }
}

/// A function of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Log2,
    Log10,
    Ln,
    Sqrt,
    Exp,
    Abs,
    Min,
    Max,
    Pow,
}

impl Func {
    const ALL: [Func; 9] = [
        Func::Log2,
        Func::Log10,
        Func::Ln,
        Func::Sqrt,
        Func::Exp,
        Func::Abs,
        Func::Min,
        Func::Max,
        Func::Pow,
    ];
    pub const NAMES: [&'static str; 9] = [
        "log2", "log10", "ln", "sqrt", "exp", "abs", "min", "max", "pow",
    ];

    fn by_name(name: &str) -> Option<Func> {
        Func::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Func::ALL[i])
    }

    fn arity(self) -> usize {
        match self {
            Func::Min | Func::Max | Func::Pow => 2,
            _ => 1,
        }
    }
}

/// One instruction of the postfix code.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Num(f64),
    Var(Var),
    Neg,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    /// `x^n` for a whole constant `n` with |n| <= 64.
    PowI(i32),
    Call(Func),
}

/// An expression that could not be parsed: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expression \"{expr}\": {message}")]
pub struct ExprError {
    /// The expression (its first 80 characters).
    pub expr: String,
    /// 1-based character position of the problem, when there is one.
    pub position: Option<usize>,
    pub message: String,
}

impl ExprError {
    fn at(src: &str, byte: usize, what: String) -> ExprError {
        let position = src[..byte.min(src.len())].chars().count() + 1;
        ExprError {
            expr: src.chars().take(80).collect(),
            position: Some(position),
            message: format!("at character {position}: {what}"),
        }
    }

    fn whole(src: &str, what: String) -> ExprError {
        ExprError {
            expr: src.chars().take(80).collect(),
            position: None,
            message: what,
        }
    }
}

/// A parsed expression: its canonical text (whitespace removed) and its postfix code.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    text: String,
    code: Vec<Op>,
    /// Deepest stack the code needs.
    stack: usize,
    uses: [bool; 7],
}

impl Expr {
    /// Parses `src`; errors name the character position and what was expected there.
    pub fn parse(src: &str) -> Result<Expr, ExprError> {
        let src = src.trim();
        if src.is_empty() {
            return Err(ExprError::whole(src, "empty expression".into()));
        }
        if src.chars().count() > MAX_LEN {
            return Err(ExprError::whole(
                src,
                format!("longer than {MAX_LEN} characters"),
            ));
        }
        let toks = lexer::tokens(src)?;
        let mut p = parse::Parser::new(src, toks);
        p.parse()?;
        let code = fold(p.code);
        let mut depth = 0usize;
        let mut stack = 0usize;
        let mut uses = [false; 7];
        for op in &code {
            let (pops, pushes) = op.arity();
            depth = depth + pushes - pops;
            if let Op::Var(v) = op {
                uses[v.index()] = true;
            }
            stack = stack.max(depth);
        }
        debug_assert_eq!(depth, 1);
        let text: String = src.chars().filter(|c| !c.is_whitespace()).collect();
        Ok(Expr {
            text,
            code,
            stack,
            uses,
        })
    }

    /// The canonical text: the source without whitespace.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// True if the expression reads `v`.
    pub fn uses(&self, v: Var) -> bool {
        self.uses[v.index()]
    }

    /// The value for `vars`; `stack` is scratch space the caller keeps between calls.
    pub fn eval_with(&self, vars: &Vars, stack: &mut Vec<f64>) -> f64 {
        stack.clear();
        stack.reserve(self.stack);
        for op in &self.code {
            let v = match *op {
                Op::Num(v) => v,
                Op::Var(v) => vars.0[v.index()],
                _ => apply(*op, stack),
            };
            stack.push(v);
        }
        pop(stack)
    }

    /// The value for `vars` (allocates its stack; for tests and one-off uses).
    pub fn eval(&self, vars: &Vars) -> f64 {
        self.eval_with(vars, &mut Vec::new())
    }
}

/// Applies an operator or function to the operands on top of `stack` (popping them).
fn apply(op: Op, stack: &mut Vec<f64>) -> f64 {
    match op {
        Op::Num(v) => v,
        Op::Var(_) => f64::NAN, // never applied: variables are read in eval_with
        Op::Neg => -pop(stack),
        Op::PowI(n) => powi(pop(stack), n),
        Op::Call(f) if f.arity() == 1 => {
            let a = pop(stack);
            match f {
                Func::Log2 => libm::log2(a),
                Func::Log10 => libm::log10(a),
                Func::Ln => libm::log(a),
                Func::Sqrt => a.sqrt(),
                Func::Exp => libm::exp(a),
                _ => a.abs(),
            }
        }
        _ => {
            let b = pop(stack);
            let a = pop(stack);
            match op {
                Op::Add => a + b,
                Op::Sub => a - b,
                Op::Mul => a * b,
                Op::Div => a / b,
                Op::Pow | Op::Call(Func::Pow) => libm::pow(a, b),
                Op::Call(Func::Min) => nan_min(a, b),
                _ => nan_max(a, b),
            }
        }
    }
}

/// `x^n` by repeated squaring (the same result on every platform).
fn powi(x: f64, n: i32) -> f64 {
    let mut base = x;
    let mut e = n.unsigned_abs();
    let mut acc = 1.0;
    while e > 0 {
        if e & 1 == 1 {
            acc *= base;
        }
        base *= base;
        e >>= 1;
    }
    if n < 0 {
        1.0 / acc
    } else {
        acc
    }
}

/// Folds constant operations and turns `x^n` (whole constant `n`, |n| <= 64) into [`Op::PowI`].
fn fold(code: Vec<Op>) -> Vec<Op> {
    let mut out: Vec<Op> = Vec::with_capacity(code.len());
    let mut consts: Vec<f64> = Vec::new();
    for op in code {
        let (pops, _) = op.arity();
        let n = out.len();
        let all_const =
            pops > 0 && n >= pops && out[n - pops..].iter().all(|o| matches!(o, Op::Num(_)));
        if all_const {
            consts.clear();
            consts.extend(out.drain(n - pops..).map(|o| match o {
                Op::Num(v) => v,
                _ => f64::NAN,
            }));
            let v = apply(op, &mut consts);
            out.push(Op::Num(v));
            continue;
        }
        if op == Op::Pow {
            if let Some(&Op::Num(e)) = out.last() {
                if e.fract() == 0.0 && e.abs() <= 64.0 {
                    out.pop();
                    out.push(Op::PowI(e as i32));
                    continue;
                }
            }
        }
        out.push(op);
    }
    out
}

impl Op {
    /// (operands taken, results pushed).
    fn arity(self) -> (usize, usize) {
        match self {
            Op::Num(_) | Op::Var(_) => (0, 1),
            Op::Neg | Op::PowI(_) => (1, 1),
            Op::Call(f) => (f.arity(), 1),
            _ => (2, 1),
        }
    }
}

/// The parse guarantees the stack holds the operands; NaN if it ever did not.
fn pop(stack: &mut Vec<f64>) -> f64 {
    stack.pop().unwrap_or(f64::NAN)
}

/// `min` that propagates NaN (f64::min would hide it).
fn nan_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// The sort key of a value: smallest first, -0 equal to 0, NaN after +infinity.
pub fn order_key(v: f64) -> f64 {
    if v.is_nan() {
        f64::NAN.copysign(1.0)
    } else {
        v + 0.0
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests;
