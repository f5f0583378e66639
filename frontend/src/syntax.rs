//! The syntax tree built by the grammar: C declarations and expressions as written, with
//! spans, before name resolution and typing (the checker turns it into `ast`).

use crate::span::Span;
use crate::types::{Access, AddrSpace, ScalarKind};

#[derive(Clone, Debug, Default)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
}

#[derive(Clone, Debug)]
pub enum ExternalDecl {
    Func(Box<FuncDef>),
    Decl(Declaration),
    Pragma(PragmaTok),
    /// A syntax error already reported; the checker skips it.
    Error,
}

#[derive(Clone, Debug)]
pub struct PragmaTok {
    pub name: String,
    pub arg: Option<u64>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FuncDef {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub attrs: Vec<Attr>,
    pub body: Stmt,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub specs: DeclSpecs,
    pub declarators: Vec<InitDeclarator>,
    pub is_typedef: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub attrs: Vec<Attr>,
    pub init: Option<Initializer>,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct DeclSpecs {
    pub items: Vec<DeclSpec>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Extern,
    Static,
    Auto,
    Register,
    Inline,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qual {
    Const,
    Volatile,
    Restrict,
}

#[derive(Clone, Debug)]
pub enum DeclSpec {
    Storage(Storage, Span),
    Qual(Qual, Span),
    AddrSpace(AddrSpace, Span),
    Access(Access, Span),
    Kernel(Span),
    Pipe(Span),
    /// A built-in type word: `int`, `unsigned`, `long`, `float4`, `size_t`, `image2d_t`...
    TypeWord(String, Span),
    /// A name declared with `typedef`.
    TypedefName(String, Span),
    Struct(StructSpec),
    Enum(EnumSpec),
    Attr(Attr),
}

impl DeclSpec {
    pub fn span(&self) -> Span {
        match self {
            DeclSpec::Storage(_, s)
            | DeclSpec::Qual(_, s)
            | DeclSpec::AddrSpace(_, s)
            | DeclSpec::Access(_, s)
            | DeclSpec::Kernel(s)
            | DeclSpec::Pipe(s)
            | DeclSpec::TypeWord(_, s)
            | DeclSpec::TypedefName(_, s) => *s,
            DeclSpec::Struct(st) => st.span,
            DeclSpec::Enum(e) => e.span,
            DeclSpec::Attr(a) => a.span,
        }
    }
}

#[derive(Clone, Debug)]
pub struct StructSpec {
    pub is_union: bool,
    pub name: Option<(String, Span)>,
    /// `None`: a reference (`struct S`), `Some`: a definition.
    pub fields: Option<Vec<StructField>>,
    pub attrs: Vec<Attr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct StructField {
    pub specs: DeclSpecs,
    /// Empty for an anonymous struct/union member.
    pub declarators: Vec<StructDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct StructDeclarator {
    pub declarator: Option<Declarator>,
    /// Bit-field width (not supported; reported by the checker).
    pub bits: Option<Expr>,
    pub attrs: Vec<Attr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumSpec {
    pub name: Option<(String, Span)>,
    pub items: Option<Vec<Enumerator>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Enumerator {
    pub name: String,
    pub value: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Attr {
    pub name: String,
    pub args: Vec<AttrArgSyn>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum AttrArgSyn {
    Expr(Expr),
    Type(TypeName),
}

#[derive(Clone, Debug)]
pub enum Declarator {
    /// No name (abstract declarators, unnamed parameters).
    Abstract(Span),
    Ident(String, Span),
    /// `* quals inner`: the pointer applies outside `inner` (`int *a[4]` = array of pointers).
    Pointer {
        quals: Vec<DeclSpec>,
        inner: Box<Declarator>,
        span: Span,
    },
    Array {
        inner: Box<Declarator>,
        size: Option<Box<Expr>>,
        span: Span,
    },
    Function {
        inner: Box<Declarator>,
        params: Vec<ParamDecl>,
        variadic: bool,
        span: Span,
    },
}

impl Declarator {
    pub fn span(&self) -> Span {
        match self {
            Declarator::Abstract(s) | Declarator::Ident(_, s) => *s,
            Declarator::Pointer { span, .. }
            | Declarator::Array { span, .. }
            | Declarator::Function { span, .. } => *span,
        }
    }

    /// The declared name and its span.
    pub fn name(&self) -> Option<(&str, Span)> {
        match self {
            Declarator::Abstract(_) => None,
            Declarator::Ident(n, s) => Some((n, *s)),
            Declarator::Pointer { inner, .. }
            | Declarator::Array { inner, .. }
            | Declarator::Function { inner, .. } => inner.name(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub attrs: Vec<Attr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TypeName {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<(Vec<Designator>, Initializer)>, Span),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Designator {
    Index(Expr),
    Field(String, Span),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum BlockItem {
    Decl(Declaration),
    Stmt(Stmt),
}

#[derive(Clone, Debug)]
pub enum ForInit {
    None,
    Decl(Declaration),
    Expr(Expr),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Compound(Vec<BlockItem>),
    Expr(Option<Expr>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Box<ForInit>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Switch(Expr, Box<Stmt>),
    Case(Expr, Box<Stmt>),
    Default(Box<Stmt>),
    Label(String, Box<Stmt>),
    Goto(String),
    Break,
    Continue,
    Return(Option<Expr>),
    /// `__attribute__((...))` before a statement.
    Attributed(Vec<Attr>, Box<Stmt>),
    /// Attributes before a declaration in a block (`__attribute__((..)) int x;`).
    AttributedDecl(Vec<Attr>, Declaration),
    /// `#pragma` before a block item.
    Pragma(PragmaTok, Box<BlockItem>),
    /// A syntax error already reported.
    Error,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

pub use crate::ast::BinOp;

#[derive(Clone, Debug)]
pub enum ExprKind {
    Ident(String),
    IntLit(u64, ScalarKind),
    FloatLit(f64, crate::literal::FloatSuffix),
    /// A character constant: type int.
    CharLit(u64),
    StrLit(String),
    Paren(Box<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(Box<TypeName>, Box<Expr>),
    CompoundLit(Box<TypeName>, Box<Initializer>),
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    VecStepExpr(Box<Expr>),
    VecStepType(Box<TypeName>),
    AlignofType(Box<TypeName>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Member(Box<Expr>, String, Span),
    Arrow(Box<Expr>, String, Span),
    Comma(Box<Expr>, Box<Expr>),
    /// A syntax error already reported.
    Error,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}
