//! Typing and lowering-relevant rules of the checked AST, checked on small programs through
//! the stable `Program::dump` text (see src/print.rs for its format).

mod common;

use common::{check_err, check_ok};
use frontend::ast::*;

/// Dump of a kernel body `k(global int *a, global float *f, int n, uint u)`.
fn body(stmts: &str) -> String {
    let src = format!(
        "kernel void k(global int *a, global float *f, int n, uint u) {{\n{}\n}}",
        stmts
    );
    let (p, _) = check_ok(&src);
    p.dump()
}

fn has(dump: &str, needle: &str) {
    assert!(
        dump.contains(needle),
        "`{}` not found in:\n{}",
        needle,
        dump
    );
}

#[test]
fn literal_types() {
    let d = body("long x = 4294967295; ulong y = 1ul; uint z = 0xffffffff; int c = 'a'; float g = 1.5f; uint w = 1u;");
    has(&d, "decl x#4: long = 4294967295:long");
    has(&d, "decl y#5: ulong = 1:ulong");
    has(&d, "decl z#6: uint = 4294967295:uint");
    has(&d, "decl c#7: int = 97:int");
    has(&d, "decl g#8: float = 1.5:float");
    has(&d, "decl w#9: uint = 1:uint");
    let d = body("a[0] = -2147483648;");
    // `-2147483648` is `-(2147483648L)`, folded, then converted to int
    has(&d, "(=:int (index:int a#0 0:int) -2147483648:int)");
}

#[test]
fn unsuffixed_float_is_float_with_a_warning() {
    let (p, w) = check_ok("kernel void k(global float *f) { f[0] = 1.5; }");
    assert!(p.dump().contains("1.5:float"));
    assert!(w
        .iter()
        .any(|d| d.message.contains("double precision constant")));
    let mut sm = frontend::SourceMap::new();
    let id = sm.add_file("d.cl", "kernel void k(global double *f) { f[0] = 1.5; }");
    let opts = frontend::Options {
        fp64: true,
        ..Default::default()
    };
    let (p, w) = frontend::compile(&mut sm, id, &opts).expect("fp64 enabled");
    assert!(w.is_empty());
    assert!(p.dump().contains("1.5:double"));
}

#[test]
fn usual_arithmetic_conversions() {
    let d = body("u = u + n; long l = 1; l = l + u; char c = 1; int i = c + c; f[0] = f[0] + n;");
    has(&d, "(+:uint u#3 (implicit:uint n#2))");
    has(&d, "(+:long l#4 (implicit:long u#3))");
    has(&d, "(+:int (implicit:int c#5) (implicit:int c#5))");
    has(&d, "(+:float (index:float f#1 0:int) (implicit:float n#2))");
}

#[test]
fn comparisons_give_int_or_signed_vectors() {
    let d = body("int r = n < 3; float4 x = 0; char4 y = 0; int4 m = x < x; char4 cm = y == y;");
    has(&d, "(<:int n#2 3:int)");
    has(&d, "(<:int4 x#5 x#5)");
    has(&d, "(==:char4 y#6 y#6)");
}

#[test]
fn vector_scalar_widening_and_literals() {
    let d = body(
        "float4 v = 2.0f; v = v * 3; v = (float4)(1.0f, 2.0f, 3.0f, 4.0f); int4 iv = (int4)(7);",
    );
    has(&d, "decl v#4: float4 = (implicit:float4 2.0:float)");
    has(&d, "(*:float4 v#4 (implicit:float4 3.0:float))");
    has(&d, "(vec:float4 1.0:float 2.0:float 3.0:float 4.0:float)");
    has(&d, "(cast:int4 7:int)");
}

#[test]
fn compound_assignment_op_type() {
    let d = body("char c = 1; c += 1; u <<= 2; f[0] *= n; a += 1;");
    has(&d, "(+=:char in int c#4 1:int)");
    has(&d, "(<<=:uint in uint u#3 2:uint)");
    has(
        &d,
        "(*=:float in float (index:float f#1 0:int) (implicit:float n#2))",
    );
    has(&d, "(+=:global int * in global int * a#0 1:int)");
}

#[test]
fn pointer_arithmetic_and_decay() {
    let d =
        body("global int *p = 2 + a; int arr[4]; int *q = arr; int dd = q - q; p[1] = *(p + 1);");
    has(&d, "(+:global int * a#0 2:int)");
    has(
        &d,
        "decl q#6: int * = (implicit:int * (implicit:private int * arr#5))",
    );
    has(&d, "(-:int q#6 q#6)");
    has(&d, "(deref:int (+:global int * p#4 1:int))");
}

#[test]
fn conditions_are_bool() {
    let d = body("if (n) a[0] = 1; while (f) break; int x = !n; int y = n && u;");
    has(&d, "if (implicit:bool n#2)");
    has(&d, "while (implicit:bool f#1)");
    has(&d, "(!:int (implicit:bool n#2))");
    has(&d, "(&&:int (implicit:bool n#2) (implicit:bool u#3))");
}

#[test]
fn work_item_functions_return_size_t() {
    let d = body("uint g = get_global_id(0); int l = get_local_id(1); uint dims = get_work_dim(); barrier(CLK_LOCAL_MEM_FENCE);");
    has(&d, "decl g#4: uint = (GetGlobalId:uint 0:uint)");
    has(
        &d,
        "decl l#5: int = (implicit:int (GetLocalId:uint 1:uint))",
    );
    has(&d, "(GetWorkDim:uint )");
    has(&d, "(Barrier:void 1:uint)");
}

#[test]
fn builtin_overloads() {
    let d = body("uint m = min(u, 3); float4 v = 0; v = max(v, 1.0f); v = clamp(v, 0.0f, 1.0f); int s = abs(n); char c = 1; c = min(c, c); float h = sqrt(2);");
    has(&d, "(Min:uint u#3 3:uint)");
    has(&d, "(Max:float4 v#5 (implicit:float4 1.0:float))");
    has(
        &d,
        "(Clamp:float4 v#5 (implicit:float4 0.0:float) (implicit:float4 1.0:float))",
    );
    has(&d, "(Abs:uint n#2)");
    has(&d, "(Min:char c#7 c#7)");
    has(&d, "(Math(Sqrt):float 2.0:float)");
}

#[test]
fn precedence_and_associativity() {
    let d = body("int x = n + n * 2; x = n << 1 + 2; x = n & n == 1; x = n ? 1 : n ? 2 : 3; int y; x = y = 4; x = -n * 2;");
    has(&d, "(+:int n#2 (*:int n#2 2:int))");
    has(&d, "(<<:int n#2 (+:int 1:int 2:int))");
    has(&d, "(&:int n#2 (==:int n#2 1:int))");
    has(
        &d,
        "(?:int (implicit:bool n#2) 1:int (?:int (implicit:bool n#2) 2:int 3:int))",
    );
    has(&d, "(=:int x#4 (=:int y#5 4:int))");
    has(&d, "(*:int (-:int n#2) 2:int)");
}

#[test]
fn dangling_else_binds_to_inner_if() {
    let d = body("if (n) if (u) a[0] = 1; else a[0] = 2;");
    has(&d, "if (implicit:bool n#2)\n    if (implicit:bool u#3)\n      (=:int (index:int a#0 0:int) 1:int)\n    else\n");
}

#[test]
fn typedefs_and_the_lexer_hack() {
    let src = "typedef int T; typedef struct S S; struct S { T v; };\n\
               typedef float4 vec;\n\
               kernel void k(global T *p) { T x = 1; T *q = &x; S s; s.v = x * *q; vec w = (vec)(1.0f); typedef uint U; U z = (U)s.v; p[0] = z + (T)(x) + sizeof(T) + (int)w.x; }";
    let (prog, _) = check_ok(src);
    let d = prog.dump();
    has(&d, "decl x#1: int = 1:int");
    has(&d, "decl s#3: struct S");
    has(&d, "decl z#5: uint = (cast:uint (.v:int s#3))");
}

#[test]
fn switch_is_structured() {
    let d = body(
        "switch (n) { case 1: case 2: a[0] = 1; break; default: a[0] = 0; case 5: a[0] = 5; }",
    );
    has(&d, "switch n#2\n    case 1, case 2:\n      (=:int (index:int a#0 0:int) 1:int)\n      break\n    default:\n      (=:int (index:int a#0 0:int) 0:int)\n    case 5:\n");
}

#[test]
fn struct_layout() {
    let (p, _) = check_ok(
        "typedef struct { char c; int i; float3 v; short s; } A;\n\
         typedef struct __attribute__((packed)) { char c; int i; } P;\n\
         typedef union { char c[5]; int i; } U;\n\
         kernel void k(global A *a, global P *p, global U *u) {}",
    );
    let st = &p.structs;
    let a = &st.structs[0];
    assert_eq!(
        a.fields.iter().map(|f| f.offset).collect::<Vec<_>>(),
        vec![0, 4, 16, 32]
    );
    assert_eq!((a.size, a.align), (48, 16));
    let pk = &st.structs[1];
    assert_eq!((pk.fields[1].offset, pk.size), (1, 5));
    let un = &st.structs[2];
    assert_eq!((un.size, un.align), (8, 4));
    assert_eq!(p.size_of(&Type::Vector(ScalarKind::Float, 3)), 16);
}

#[test]
fn pragmas_and_attributes_reach_loops() {
    let (p, _) = check_ok(
        "kernel void k(global int *a) {\n\
         #pragma unroll 4\n\
         for (int i = 0; i < 8; i++) a[i] = i;\n\
         #pragma unroll\n\
         while (a[0]) a[0]--;\n\
         #pragma nounroll\n\
         do { a[1]++; } while (a[1] < 3);\n\
         __attribute__((opencl_unroll_hint(2))) __attribute__((xcl_pipeline_loop(1)))\n\
         for (;;) break;\n\
         }",
    );
    let f = &p.functions[0];
    let loops: Vec<&Stmt> = f.body.stmts.iter().filter(|s| s.is_loop()).collect();
    assert_eq!(loops.len(), 4);
    assert_eq!(loops[0].pragmas[0].name, "unroll");
    assert_eq!(loops[0].pragmas[0].arg, Some(4));
    assert_eq!(loops[1].pragmas[0].arg, None);
    assert_eq!(loops[2].pragmas[0].name, "nounroll");
    assert_eq!(loops[3].attrs[0].name, "opencl_unroll_hint");
    assert_eq!(loops[3].attrs[0].int_args(), Some(vec![2]));
    assert_eq!(loops[3].attrs[1].name, "xcl_pipeline_loop");
    assert_eq!(
        loops[3].loop_attrs,
        LoopAttrs {
            unroll_hint: Some(Unroll::Count(2)),
            pipeline_ii: Some(1),
            tripcount: None,
        }
    );
    assert_eq!(loops[0].loop_attrs, LoopAttrs::default());
}

#[test]
fn loop_attributes_are_typed() {
    let (p, _) = check_ok(
        "kernel void k(global int *a) {\n\
         __attribute__((opencl_unroll_hint)) __attribute__((xcl_loop_tripcount(4, 16, 8)))\n\
         for (int i = 0; i < 8; i++) a[i] = i;\n\
         __attribute__((xcl_pipeline_loop)) __attribute__((xcl_loop_tripcount(1, 2)))\n\
         while (a[0]) a[0]--;\n\
         }",
    );
    let loops: Vec<&Stmt> = p.functions[0]
        .body
        .stmts
        .iter()
        .filter(|s| s.is_loop())
        .collect();
    assert_eq!(loops[0].loop_attrs.unroll_hint, Some(Unroll::Full));
    assert_eq!(
        loops[0].loop_attrs.tripcount,
        Some(TripCount {
            min: 4,
            max: 16,
            avg: Some(8)
        })
    );
    assert_eq!(loops[1].loop_attrs.pipeline_ii, Some(1));
    assert_eq!(
        loops[1].loop_attrs.tripcount,
        Some(TripCount {
            min: 1,
            max: 2,
            avg: None
        })
    );
}

#[test]
fn kernel_attributes() {
    let (p, _) = check_ok(
        "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((vec_type_hint(float4)))\n\
         void k(global int *a) {}\n\
         __kernel_exec(32, int) void j(global int *a) {}",
    );
    let k = &p.functions[0];
    assert_eq!(
        k.attr("reqd_work_group_size").and_then(|a| a.int_args()),
        Some(vec![64, 1, 1])
    );
    assert_eq!(
        k.attr("vec_type_hint").map(|a| a.args.clone()),
        Some(vec![AttrArg::Type(Type::Vector(ScalarKind::Float, 4))])
    );
    assert_eq!(
        p.functions[1]
            .attr("work_group_size_hint")
            .and_then(|a| a.int_args()),
        Some(vec![32, 1, 1])
    );
    assert_eq!(p.kernels().count(), 2);
    assert_eq!(
        k.kernel_attrs,
        KernelAttrs {
            reqd_work_group_size: Some([64, 1, 1]),
            vec_type_hint: Some(Type::Vector(ScalarKind::Float, 4)),
            ..KernelAttrs::default()
        }
    );
    assert_eq!(
        p.functions[1].kernel_attrs,
        KernelAttrs {
            work_group_size_hint: Some([32, 1, 1]),
            vec_type_hint: Some(Type::INT),
            ..KernelAttrs::default()
        }
    );
}

#[test]
fn vendor_kernel_attributes_are_typed() {
    let (p, _) = check_ok(
        "kernel __attribute__((max_global_work_dim(0))) __attribute__((max_work_group_size(256)))\n\
         void a(global int *x) {}\n\
         kernel __attribute__((xcl_max_work_group_size(8, 4, 2))) __attribute__((reqd_work_group_size(8, 4, 1)))\n\
         __attribute__((reqd_work_group_size(8, 4, 1))) void b(global int *x) {}",
    );
    assert_eq!(p.functions[0].kernel_attrs.max_global_work_dim, Some(0));
    assert_eq!(p.functions[0].kernel_attrs.max_work_group_size, Some(256));
    assert_eq!(p.functions[1].kernel_attrs.max_work_group_size, Some(64));
    assert_eq!(
        p.functions[1].kernel_attrs.reqd_work_group_size,
        Some([8, 4, 1])
    );
}

#[test]
fn parameter_and_pipe_attributes_are_typed() {
    let (p, _) = check_ok(
        "pipe int gp __attribute__((xcl_reqd_pipe_depth(32)));\n\
         kernel void k(local int *s __attribute__((local_mem_size(256))),\n\
                       read_only pipe int a __attribute__((blocking)) __attribute__((depth(8))),\n\
                       write_only pipe int b __attribute__((xcl_reqd_pipe_depth(4))), global int *g) {\n\
           int v; read_pipe(a, &v); write_pipe(b, &v); write_pipe(gp, &v); s[0] = v; g[0] = v;\n\
         }",
    );
    assert_eq!(
        p.globals[0].pipe_attrs,
        PipeAttrs {
            depth: Some(32),
            blocking: false
        }
    );
    let k = &p.functions[0];
    let attrs: Vec<&ParamAttrs> = k.params.iter().map(|v| &p.var(*v).param_attrs).collect();
    assert_eq!(attrs[0].local_mem_size, Some(256));
    assert_eq!(
        attrs[1].pipe,
        PipeAttrs {
            depth: Some(8),
            blocking: true
        }
    );
    assert_eq!(attrs[2].pipe.depth, Some(4));
    assert_eq!(*attrs[3], ParamAttrs::default());
}

#[test]
fn defines_undefines_and_includes() {
    let mut sm = frontend::SourceMap::new();
    let id = sm.add_file(
        "opts.cl",
        "#include \"common.h\"\n#include \"common.h\"\n#pragma once\n\
         #ifndef WIDTH\n#error WIDTH missing\n#endif\n\
         #ifdef CL_VERSION_2_0\n#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0 && defined(__ENDIAN_LITTLE__)\n\
         kernel void k(global float *a) { a[0] = SCALE(WIDTH) + FLAG; }\n#endif\n#endif",
    );
    let opts = frontend::Options {
        defines: vec![
            ("WIDTH".into(), Some("8".into())),
            ("FLAG".into(), None),
            ("GONE".into(), None),
        ],
        undefines: vec!["GONE".into()],
        include_dirs: vec![common::dir("include")],
        ..Default::default()
    };
    let (p, w) = frontend::compile(&mut sm, id, &opts)
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    assert!(w.is_empty(), "{:?}", w);
    assert!(
        p.dump().contains("(*:float 8.0:float 0.5:float)"),
        "{}",
        p.dump()
    );
}

#[test]
fn line_directive_renumbers_diagnostics_and_line_macro() {
    let src = "kernel void k(global int *a) {\n#line 100 \"gen.cl\"\n  a[0] = __LINE__;\n  a[1] = oops;\n}";
    let (sm, r) = common::compile_str(src);
    let d = r.expect_err("error");
    // the physical line stays available for tools; users see the presumed one
    assert_eq!(sm.line_col(d[0].span()), (4, 10));
    assert!(
        sm.describe(d[0].span()).ends_with(":101:10"),
        "{}",
        sm.describe(d[0].span())
    );
    let text = frontend::render(&sm, &d, false);
    assert!(text.contains("input.cl:101:10"), "{}", text);
    assert!(text.contains("101 │   a[1] = oops;"), "{}", text);
    let (p, _) = common::check_ok("kernel void k(global int *a) {\n#line 7\n  a[0] = __LINE__;\n}");
    assert!(p.dump().contains("7:int"), "{}", p.dump());
    let d = common::check_err("#line 0\nkernel void k(global int *a) {}");
    assert!(d[0].message.contains("positive decimal line number"));
}

#[test]
fn macro_spans_point_at_the_use() {
    let src = "#define BAD (undefined_thing + 1)\nkernel void k(global int *a) {\n  a[0] = BAD;\n}";
    let (sm, r) = common::compile_str(src);
    let d = r.expect_err("error");
    let (line, col) = sm.line_col(d[0].span());
    assert_eq!((line, col), (3, 10), "{:?}", d[0]);
}

#[test]
fn implicit_vector_conversion_is_rejected() {
    let d = check_err("kernel void k(global int4 *a, float4 f) { a[0] = f; }");
    assert!(d[0].message.contains("cannot convert `float4` to `int4`"));
    let d = check_err("kernel void k(global int4 *a, float4 f) { a[0] = (int4)f; }");
    assert!(d[0].notes.iter().any(|n| n.contains("convert_int4")));
}

#[test]
fn helper_calls_convert_arguments() {
    let (p, _) = check_ok("float twice(float x) { return 2.0f * x; }\nkernel void k(global float *f, int n) { f[0] = twice(n); }");
    let d = p.dump();
    has(&d, "(call:float twice (implicit:float n#2))");
    has(&d, "fn#0 twice(x#0: float) -> float");
}

#[test]
fn local_and_constant_variables() {
    let (p, _) = check_ok(
        "constant int lut[3] = {1, 2, 3};\n\
         kernel void k(global int *a) { local int tile[64]; constant float w[2] = {0.5f, 0.25f}; tile[0] = lut[1]; a[0] = tile[0] + (int)w[1]; }",
    );
    let d = p.dump();
    has(&d, "global #0 constant lut: int[3] = {1:int, 2:int, 3:int}");
    has(
        &d,
        "global #1 constant w: float[2] = {0.5:float, 0.25:float}",
    );
    has(&d, "decl tile#1: int[64] in local");
}
