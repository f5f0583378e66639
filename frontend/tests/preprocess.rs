//! Unit tests of the preprocessor through its public API (`Preprocessor::new(..).run(..)`).

use frontend::lexer::PpKind;
use frontend::preprocess::Preprocessor;
use frontend::{Diagnostic, Options, SourceMap};

/// Preprocesses `src` and joins the resulting token texts with spaces.
fn pp(src: &str) -> (String, Vec<Diagnostic>) {
    let mut sm = SourceMap::new();
    let f = sm.add_file("t.cl", src);
    let opts = Options::default();
    let p = Preprocessor::new(&mut sm, &opts, f);
    let (out, diags) = p.run(f);
    let text: Vec<String> = out.tokens.iter().map(|t| t.text.to_string()).collect();
    (text.join(" "), diags)
}

#[test]
fn object_and_function_macros() {
    assert_eq!(pp("#define N 4\nint a[N];").0, "int a [ 4 ] ;");
    assert_eq!(
        pp("#define SQ(x) ((x)*(x))\nSQ(a+1)").0,
        "( ( a + 1 ) * ( a + 1 ) )"
    );
    assert_eq!(pp("#define F(x) x\nF (1) F").0, "1 F");
    assert_eq!(pp("#define E() 7\nE()").0, "7");
}

#[test]
fn paste_stringize_variadic() {
    assert_eq!(
        pp("#define VEC(t, n) t##n\nVEC(float, 4) v;").0,
        "float4 v ;"
    );
    assert_eq!(pp("#define S(x) #x\nS(a + \"b\")").0, "\"a + \\\"b\\\"\"");
    assert_eq!(
        pp("#define P(f, ...) f(__VA_ARGS__)\nP(g, 1, 2)").0,
        "g ( 1 , 2 )"
    );
    assert_eq!(pp("#define CAT(a, b) a##b\nCAT(x, )").0, "x");
}

#[test]
fn recursion_stops() {
    assert_eq!(pp("#define x x + 1\nx").0, "x + 1");
    assert_eq!(pp("#define a b\n#define b a\na b").0, "a b");
    assert_eq!(pp("#define f(x) x f\nf(1)(2)").0, "1 f ( 2 )");
}

#[test]
fn conditionals() {
    let src = "#if defined(A) || 2 * 3 == 6\nyes\n#else\nno\n#endif\n#ifdef A\nA\n#elif 0\nB\n#elif 1 ? 1 : 0\nC\n#endif";
    assert_eq!(pp(src).0, "yes C");
    assert_eq!(pp("#if 0\n#bogus @@@ '\n#endif\nok").0, "ok");
    assert_eq!(
        pp("#if -1 < 0u\nsigned\n#else\nunsigned\n#endif").0,
        "unsigned"
    );
    assert_eq!(
        pp("#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0\nv2\n#endif").0,
        "v2"
    );
}

#[test]
fn pragmas_become_tokens() {
    let mut sm = SourceMap::new();
    let f = sm.add_file("t.cl", "#pragma unroll 4\nfor\n#pragma unroll\n#pragma nounroll\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    let opts = Options::default();
    let (out, diags) = Preprocessor::new(&mut sm, &opts, f).run(f);
    assert!(diags.is_empty(), "{:?}", diags);
    let kinds: Vec<_> = out
        .tokens
        .iter()
        .map(|t| (t.kind.clone(), t.text.to_string()))
        .collect();
    assert_eq!(kinds[0], (PpKind::Pragma(Some(4)), "unroll".to_string()));
    assert_eq!(kinds[2], (PpKind::Pragma(None), "unroll".to_string()));
    assert_eq!(kinds[3], (PpKind::Pragma(None), "nounroll".to_string()));
    assert!(out.extensions.contains("cl_khr_fp16"));
}

#[test]
fn line_and_file() {
    assert_eq!(pp("\n\n__LINE__").0, "3");
    assert_eq!(pp("__FILE__").0, "\"t.cl\"");
}

#[test]
fn expansion_spans_are_the_use() {
    let mut sm = SourceMap::new();
    let src = "#define ONE 1\n#define ADD(a, b) a + b\nx = ONE; y = ADD(z, 2);";
    let f = sm.add_file("t.cl", src);
    let opts = Options::default();
    let (out, _) = Preprocessor::new(&mut sm, &opts, f).run(f);
    let one = out.tokens.iter().find(|t| &*t.text == "1").expect("1");
    assert_eq!(sm.snippet(one.span), "ONE");
    let plus = out.tokens.iter().find(|t| &*t.text == "+").expect("+");
    assert_eq!(sm.snippet(plus.span), "ADD(z, 2)");
    let z = out.tokens.iter().find(|t| &*t.text == "z").expect("z");
    assert_eq!(sm.snippet(z.span), "z");
}
