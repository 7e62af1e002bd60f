//! Recursive-descent parser from tokens to postfix code.
//!
//! ```text
//! sum     = product { ('+' | '-') product }
//! product = unary { ('*' | '/') unary }
//! unary   = ('-' | '+') unary | power
//! power   = primary [ '^' unary ]            right-associative; -x^2 = -(x^2)
//! primary = number | variable | function '(' sum { ',' sum } ')' | '(' sum ')'
//! ```

use super::lexer::Tok;
use super::{ExprError, Func, Op, Var, MAX_DEPTH};

pub(super) struct Parser<'s> {
    src: &'s str,
    toks: Vec<(usize, Tok<'s>)>,
    at: usize,
    depth: usize,
    pub(super) code: Vec<Op>,
}

impl<'s> Parser<'s> {
    pub(super) fn new(src: &'s str, toks: Vec<(usize, Tok<'s>)>) -> Self {
        Parser {
            src,
            toks,
            at: 0,
            depth: 0,
            code: Vec::new(),
        }
    }

    fn peek(&self) -> Tok<'s> {
        self.toks[self.at].1
    }

    fn pos(&self) -> usize {
        self.toks[self.at].0
    }

    fn bump(&mut self) -> Tok<'s> {
        let t = self.peek();
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }

    fn expected(&self, what: &str) -> ExprError {
        ExprError::at(
            self.src,
            self.pos(),
            format!("expected {what}, found {}", self.peek().describe()),
        )
    }

    /// The whole expression: a sum followed by the end.
    pub(super) fn parse(&mut self) -> Result<(), ExprError> {
        self.sum()?;
        if self.peek() != Tok::End {
            return Err(self.expected("an operator (+ - * / ^) or the end of the expression"));
        }
        Ok(())
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ExprError::at(
                self.src,
                self.pos(),
                format!("nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn sum(&mut self) -> Result<(), ExprError> {
        self.enter()?;
        self.product()?;
        while let Tok::Op(c @ (b'+' | b'-')) = self.peek() {
            self.bump();
            self.product()?;
            self.code.push(if c == b'+' { Op::Add } else { Op::Sub });
        }
        self.depth -= 1;
        Ok(())
    }

    fn product(&mut self) -> Result<(), ExprError> {
        self.unary()?;
        while let Tok::Op(c @ (b'*' | b'/')) = self.peek() {
            self.bump();
            self.unary()?;
            self.code.push(if c == b'*' { Op::Mul } else { Op::Div });
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<(), ExprError> {
        self.enter()?;
        match self.peek() {
            Tok::Op(b'-') => {
                self.bump();
                self.unary()?;
                self.code.push(Op::Neg);
            }
            Tok::Op(b'+') => {
                self.bump();
                self.unary()?;
            }
            _ => self.power()?,
        }
        self.depth -= 1;
        Ok(())
    }

    fn power(&mut self) -> Result<(), ExprError> {
        self.primary()?;
        if self.peek() == Tok::Op(b'^') {
            self.bump();
            self.unary()?;
            self.code.push(Op::Pow);
        }
        Ok(())
    }

    fn primary(&mut self) -> Result<(), ExprError> {
        let pos = self.pos();
        match self.peek() {
            Tok::Num(v) => {
                self.bump();
                self.code.push(Op::Num(v));
            }
            Tok::Open => {
                self.bump();
                self.sum()?;
                if self.peek() != Tok::Close {
                    return Err(self.expected("')' or an operator"));
                }
                self.bump();
            }
            Tok::Name(name) => {
                self.bump();
                let is_call = self.peek() == Tok::Open;
                if let Some(v) = Var::by_name(name) {
                    if is_call {
                        return Err(ExprError::at(
                            self.src,
                            pos,
                            format!("\"{name}\" is a variable, not a function"),
                        ));
                    }
                    self.code.push(Op::Var(v));
                } else if let Some(f) = Func::by_name(name) {
                    if !is_call {
                        return Err(ExprError::at(
                            self.src,
                            pos,
                            format!("\"{name}\" is a function: write {name}(...)"),
                        ));
                    }
                    self.call(name, pos, f)?;
                } else {
                    return Err(ExprError::at(
                        self.src,
                        pos,
                        format!(
                            "unknown name \"{name}\"{} (variables: {}; functions: {})",
                            suggest(name),
                            Var::NAMES.join(" "),
                            Func::NAMES.join(" ")
                        ),
                    ));
                }
            }
            _ => {
                return Err(self.expected("a number, a variable, a function or '('"));
            }
        }
        Ok(())
    }

    fn call(&mut self, name: &str, pos: usize, f: Func) -> Result<(), ExprError> {
        self.bump(); // '('
        let mut args = 0;
        loop {
            self.sum()?;
            args += 1;
            match self.peek() {
                Tok::Comma => {
                    self.bump();
                }
                Tok::Close => {
                    self.bump();
                    break;
                }
                _ => return Err(self.expected("',' or ')'")),
            }
        }
        if args != f.arity() {
            return Err(ExprError::at(
                self.src,
                pos,
                format!(
                    "{name} takes {} argument{}, found {args}",
                    f.arity(),
                    if f.arity() == 1 { "" } else { "s" }
                ),
            ));
        }
        self.code.push(Op::Call(f));
        Ok(())
    }
}

/// What an unknown name was likely meant to be, with a leading "; ": a variable or function
/// one typo away (a letter wrong, missing, added, or two swapped: `wiat`, `Wait`, `mx`), or
/// the runtime, which no scheduler knows.
fn suggest(name: &str) -> String {
    let low = name.to_ascii_lowercase();
    if ["runtime", "run_time", "run", "duration"].contains(&low.as_str()) {
        return "; a policy does not know a job's runtime: estimate (what it plans with) or \
                requested (its user's limit)"
            .into();
    }
    let near = Var::NAMES
        .iter()
        .chain(Func::NAMES.iter())
        .find(|n| crate::spec::one_typo(&low, n));
    near.map_or(String::new(), |n| format!("; did you mean \"{n}\"?"))
}
