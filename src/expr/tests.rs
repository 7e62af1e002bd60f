use super::*;

fn vars() -> Vars {
    // wait, estimate, requested, procs, submit, user, now
    Vars::new(100.0, 50.0, 200.0, 8.0, 1000.0, 7.0, 1100.0)
}

fn val(src: &str) -> f64 {
    Expr::parse(src)
        .unwrap_or_else(|e| panic!("{src}: {e}"))
        .eval(&vars())
}

#[test]
fn arithmetic_by_hand() {
    assert_eq!(val("1+2*3"), 7.0);
    assert_eq!(val("(1+2)*3"), 9.0);
    assert_eq!(val("2^3^2"), 512.0); // right-associative
    assert_eq!(val("-2^2"), -4.0); // -(2^2)
    assert_eq!(val("2^-1"), 0.5);
    assert_eq!(val("--3"), 3.0);
    assert_eq!(val("+3"), 3.0);
    assert_eq!(val("10-4-3"), 3.0); // left-associative
    assert_eq!(val("8/4/2"), 1.0);
    assert_eq!(val("1.5e3"), 1500.0);
    assert_eq!(val("2E-2"), 0.02);
    assert_eq!(val(".5"), 0.5);
    assert_eq!(val("  1 +\t2 "), 3.0);
}

#[test]
fn variables_and_functions() {
    assert_eq!(val("wait"), 100.0);
    assert_eq!(val("estimate"), 50.0);
    assert_eq!(val("requested"), 200.0);
    assert_eq!(val("procs"), 8.0);
    assert_eq!(val("submit"), 1000.0);
    assert_eq!(val("user"), 7.0);
    assert_eq!(val("now"), 1100.0);
    assert_eq!(val("log2(procs)"), 3.0);
    assert_eq!(val("log10(submit)"), 3.0);
    assert_eq!(val("ln(exp(2))"), 2.0);
    assert_eq!(val("sqrt(wait)"), 10.0);
    assert_eq!(val("abs(-wait)"), 100.0);
    assert_eq!(val("min(wait, estimate)"), 50.0);
    assert_eq!(val("max(wait,estimate)"), 100.0);
    assert_eq!(val("pow(2, procs)"), 256.0);
    assert_eq!(val("max(min(1,2),pow(2,2))"), 4.0);
}

#[test]
fn presets_by_hand() {
    // wait 100, requested 200, procs 8, submit 1000
    assert_eq!(val(preset("wfp3").unwrap().expr), -(0.5f64.powi(3)) * 8.0);
    assert_eq!(val(preset("unicep").unwrap().expr), -100.0 / (3.0 * 200.0));
    assert_eq!(val(preset("saf").unwrap().expr), 1600.0);
    let lr = 200f64.log10();
    assert_eq!(val(preset("f1").unwrap().expr), lr * 8.0 + 870.0 * 3.0);
    assert_eq!(
        val(preset("f2").unwrap().expr),
        200f64.sqrt() * 8.0 + 25600.0 * 3.0
    );
    assert_eq!(val(preset("f3").unwrap().expr), 1600.0 + 6860000.0 * 3.0);
    assert_eq!(
        val(preset("f4").unwrap().expr),
        200.0 * 8f64.sqrt() + 530000.0 * 3.0
    );
    for p in PRESETS {
        Expr::parse(p.expr).unwrap();
    }
}

#[test]
fn divisions_by_zero_are_ieee() {
    assert_eq!(val("1/0"), f64::INFINITY);
    assert_eq!(val("-1/0"), f64::NEG_INFINITY);
    assert!(val("0/0").is_nan());
    assert!(val("sqrt(-1)").is_nan());
    assert_eq!(val("log2(0)"), f64::NEG_INFINITY);
    assert!(val("min(0/0, 1)").is_nan());
    assert!(val("max(1, 0/0)").is_nan());
    // unicep for a one-processor job that has just arrived: -(0 / (0 * r)) = NaN
    let e = Expr::parse(preset("unicep").unwrap().expr).unwrap();
    assert!(e
        .eval(&Vars::new(0.0, 5.0, 5.0, 1.0, 0.0, 0.0, 0.0))
        .is_nan());
}

#[test]
fn order_key_orders_infinities_and_nan() {
    let mut v = [
        f64::NAN,
        1.0,
        f64::INFINITY,
        -0.0,
        f64::NEG_INFINITY,
        0.0,
        -f64::NAN,
    ];
    v.sort_by(|a, b| order_key(*a).total_cmp(&order_key(*b)));
    assert_eq!(v[0], f64::NEG_INFINITY);
    assert_eq!(order_key(v[1]), order_key(v[2])); // -0 == 0
    assert_eq!(v[3], 1.0);
    assert_eq!(v[4], f64::INFINITY);
    assert!(v[5].is_nan() && v[6].is_nan());
    assert_eq!(
        order_key(-0.0).total_cmp(&order_key(0.0)),
        std::cmp::Ordering::Equal
    );
}

#[test]
fn canonical_text_drops_whitespace() {
    let e = Expr::parse(" -( wait / requested ) ^ 3 * procs ").unwrap();
    assert_eq!(e.text(), "-(wait/requested)^3*procs");
    assert!(e.uses(Var::Wait) && e.uses(Var::Procs) && !e.uses(Var::User));
    assert_eq!(Expr::parse(e.text()).unwrap(), e);
}

fn err(src: &str) -> ExprError {
    match Expr::parse(src) {
        Ok(e) => panic!("{src:?} parsed as {e:?}"),
        Err(e) => e,
    }
}

#[test]
fn syntax_errors_name_the_position_and_what_was_expected() {
    let e = err("wait+");
    assert_eq!(e.position, Some(6));
    assert!(e
        .message
        .contains("expected a number, a variable, a function or '('"));
    assert!(e.message.contains("found the end"));

    let e = err("(wait+1");
    assert_eq!(e.position, Some(8));
    assert!(e.message.contains("expected ')'"), "{}", e.message);

    let e = err("wait 2");
    assert_eq!(e.position, Some(6));
    assert!(e.message.contains("expected an operator"));

    let e = err("wait)");
    assert_eq!(e.position, Some(5));

    let e = err("wiat*2");
    assert_eq!(e.position, Some(1));
    assert!(e
        .message
        .contains("unknown name \"wiat\"; did you mean \"wait\"?"));
    // A letter wrong, missing or added, a capital; none for a name far from every one.
    for (typo, meant) in [
        ("Wait", "wait"),
        ("proc", "procs"),
        ("estimatee", "estimate"),
        ("sqr", "sqrt"),
    ] {
        assert!(
            err(typo)
                .message
                .contains(&format!("did you mean \"{meant}\"?")),
            "{typo}"
        );
    }
    assert!(!err("fairness").message.contains("did you mean"));
    // The runtime, which no policy knows: what it may use instead.
    assert!(err("wait / runtime")
        .message
        .contains("a policy does not know a job's runtime"));
    assert!(e
        .message
        .contains("wait estimate requested procs submit user now"));

    let e = err("2*log(3)");
    assert_eq!(e.position, Some(3));
    assert!(e.message.contains("unknown name \"log\""));

    let e = err("log2 + 1");
    assert!(e.message.contains("\"log2\" is a function"));
    let e = err("wait(1)");
    assert!(e.message.contains("\"wait\" is a variable"));
    let e = err("min(1)");
    assert!(e.message.contains("min takes 2 arguments, found 1"));
    let e = err("sqrt(1,2)");
    assert!(e.message.contains("sqrt takes 1 argument, found 2"));
    let e = err("max(1;2)");
    assert_eq!(e.position, Some(6));
    assert!(e.message.contains("unexpected character ';'"));
    let e = err("1.2.3");
    assert!(e.message.contains("\"1.2.3\" is not a number"));
    let e = err("2e+");
    assert!(e.message.contains("is not a number"));
    let e = err("é");
    assert_eq!(e.position, Some(1));
    let e = err("1+é");
    assert_eq!(e.position, Some(3));
    for bad in [
        "", "   ", "()", "1,2", "*2", "2**3", "min(,1)", "(", ")", "min(1,2",
    ] {
        err(bad);
    }
}

#[test]
fn bounded_length_and_depth() {
    let long = "1+".repeat(MAX_LEN / 2) + "1";
    assert!(err(&long).message.contains("longer than 400"));
    let deep = "(".repeat(40) + "1" + &")".repeat(40);
    assert!(err(&deep).message.contains("nested deeper"));
    let minus = "-".repeat(100) + "1";
    assert!(err(&minus).message.contains("nested deeper"));
    let pow = "2^".repeat(60) + "1";
    assert!(err(&pow).message.contains("nested deeper"));
    // the longest sum accepted evaluates with a small stack
    let sum = "1+".repeat(MAX_LEN / 2 - 1) + "1";
    assert_eq!(val(&sum), (MAX_LEN / 2) as f64);
}

#[test]
fn never_panics_on_arbitrary_bytes() {
    // every prefix and a few mutations of a valid expression: parse or a clean error
    let base = "max(-(wait/requested)^3*procs, log10(submit+1e-3)) / min(2,estimate)";
    for i in 0..base.len() {
        let _ = Expr::parse(&base[..i]).map(|e| e.eval(&vars()));
        let _ = Expr::parse(&base[i..]).map(|e| e.eval(&vars()));
        for c in ['(', ')', ',', '^', '-', 'e', '.', '9', ' '] {
            let mut s = base.to_string();
            s.insert(i, c);
            let _ = Expr::parse(&s).map(|e| e.eval(&vars()));
        }
    }
}

#[test]
fn constants_fold_and_whole_powers_multiply() {
    let e = Expr::parse("wait^3").unwrap();
    assert_eq!(e.code, vec![Op::Var(Var::Wait), Op::PowI(3)]);
    let e = Expr::parse("2*3+wait^(1+1)*log10(100)").unwrap();
    assert_eq!(
        e.code,
        vec![
            Op::Num(6.0),
            Op::Var(Var::Wait),
            Op::PowI(2),
            Op::Num(2.0),
            Op::Mul,
            Op::Add
        ]
    );
    assert_eq!(e.eval(&vars()), 6.0 + 100.0 * 100.0 * 2.0);
    assert_eq!(val("procs^-2"), 1.0 / 64.0);
    assert_eq!(val("procs^0"), 1.0);
    assert_eq!(val("wait^0.5"), 10.0);
    assert_eq!(val("(0-wait)^3"), -1.0e6);
    assert!(val("(0-wait)^0.5").is_nan());
    // the postfix code of a folded constant expression is a single number
    assert_eq!(
        Expr::parse("-(2^10)/4").unwrap().code,
        vec![Op::Num(-256.0)]
    );
}
