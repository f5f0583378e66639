//! Loader for HatScheT benchmark instances (`graphN.graphml` + `graphN_RM.xml`), shared by
//! the `machsuite` example and the tests (test/benchmark support, not product code).
//!
//! The files are machine-written, so a small tag scanner is enough: elements, attributes
//! in double quotes, text content, the five predefined entities.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use scheduler::{Edge, Op, OpIdx, Problem, Resource, ResourceId};

#[derive(Debug)]
enum Token {
    Open {
        name: String,
        attrs: HashMap<String, String>,
        empty: bool,
    },
    Close {
        name: String,
    },
    Text(String),
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn tokens(src: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut rest = src;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            out.push(Token::Text(unescape(rest)));
            break;
        };
        if lt > 0 {
            out.push(Token::Text(unescape(&rest[..lt])));
        }
        rest = &rest[lt..];
        if rest.starts_with("<?") || rest.starts_with("<!--") || rest.starts_with("<!") {
            let close = if rest.starts_with("<!--") { "-->" } else { ">" };
            let end = rest.find(close).ok_or("unterminated declaration")?;
            rest = &rest[end + close.len()..];
            continue;
        }
        let end = rest.find('>').ok_or("unterminated tag")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            out.push(Token::Close {
                name: name.trim().to_string(),
            });
            continue;
        }
        let (tag, empty) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let tag = tag.trim();
        let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let name = tag[..name_end].to_string();
        let mut attrs = HashMap::new();
        let mut a = tag[name_end..].trim_start();
        while !a.is_empty() {
            let eq = a
                .find('=')
                .ok_or_else(|| format!("bad attribute in <{name}>"))?;
            let key = a[..eq].trim().to_string();
            let after = a[eq + 1..].trim_start();
            let quote = after.chars().next().ok_or("missing attribute value")?;
            if quote != '"' && quote != '\'' {
                return Err(format!("unquoted attribute {key} in <{name}>"));
            }
            let close = after[1..].find(quote).ok_or("unterminated attribute")?;
            attrs.insert(key, unescape(&after[1..1 + close]));
            a = after[close + 2..].trim_start();
        }
        out.push(Token::Open { name, attrs, empty });
    }
    Ok(out)
}

/// One resource type of a `_RM.xml` file.
#[derive(Clone, Debug)]
pub struct RmEntry {
    pub name: String,
    pub latency: u32,
    pub blocking_time: u32,
    pub limit: Option<u32>,
    pub delay_ns: f64,
}

fn attr<'a>(attrs: &'a HashMap<String, String>, key: &str, ctx: &str) -> Result<&'a str, String> {
    attrs
        .get(key)
        .map(String::as_str)
        .ok_or_else(|| format!("{ctx}: missing attribute `{key}`"))
}

fn num<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.trim().parse().map_err(|_| format!("bad {what}: `{s}`"))
}

pub fn parse_rm(src: &str) -> Result<Vec<RmEntry>, String> {
    let mut out = Vec::new();
    for t in tokens(src)? {
        if let Token::Open { name, attrs, .. } = t {
            if name != "Resource" {
                continue;
            }
            let rname = attr(&attrs, "name", "Resource")?.to_string();
            let limit: i64 = num(attr(&attrs, "limit", &rname)?, "limit")?;
            out.push(RmEntry {
                latency: num(attr(&attrs, "latency", &rname)?, "latency")?,
                blocking_time: num(attr(&attrs, "blockingTime", &rname)?, "blockingTime")?,
                limit: if limit < 0 { None } else { Some(limit as u32) },
                delay_ns: num(attr(&attrs, "physicalDelay", &rname)?, "physicalDelay")?,
                name: rname,
            });
        }
    }
    Ok(out)
}

/// Builds a problem from a graphml text and its resource model.
pub fn parse_graph(src: &str, rm: &[RmEntry]) -> Result<Problem, String> {
    let mut p = Problem::new();
    let mut res_index: HashMap<&str, ResourceId> = HashMap::new();
    for r in rm {
        let id = p.add_resource(Resource {
            name: r.name.clone(),
            limit: r.limit,
            blocking_time: r.blocking_time,
        });
        res_index.insert(r.name.as_str(), id);
    }
    enum Cur {
        None,
        Node(String),
        Edge { src: String, dst: String },
    }
    let mut cur = Cur::None;
    let mut key: Option<String> = None;
    let mut text = String::new();
    let mut node_ids: HashMap<String, OpIdx> = HashMap::new();
    let mut node_res: Vec<(String, String)> = Vec::new();
    let mut node_data: HashMap<String, String> = HashMap::new();
    let mut edges: Vec<(String, String, HashMap<String, String>)> = Vec::new();
    let mut edge_data: HashMap<String, String> = HashMap::new();
    for t in tokens(src)? {
        match t {
            Token::Open { name, attrs, empty } => match name.as_str() {
                "node" => {
                    cur = Cur::Node(attr(&attrs, "id", "node")?.to_string());
                    node_data.clear();
                    if empty {
                        return Err("node without data".into());
                    }
                }
                "edge" => {
                    cur = Cur::Edge {
                        src: attr(&attrs, "source", "edge")?.to_string(),
                        dst: attr(&attrs, "target", "edge")?.to_string(),
                    };
                    edge_data.clear();
                }
                "data" => {
                    key = Some(attr(&attrs, "key", "data")?.to_string());
                    text.clear();
                }
                _ => {}
            },
            Token::Text(s) => {
                if key.is_some() {
                    text.push_str(&s);
                }
            }
            Token::Close { name } => match name.as_str() {
                "data" => {
                    if let Some(k) = key.take() {
                        match cur {
                            Cur::Node(_) => node_data.insert(k, text.trim().to_string()),
                            Cur::Edge { .. } => edge_data.insert(k, text.trim().to_string()),
                            Cur::None => None,
                        };
                    }
                }
                "node" => {
                    if let Cur::Node(id) = std::mem::replace(&mut cur, Cur::None) {
                        let r = node_data
                            .get("uses_resource")
                            .ok_or_else(|| format!("node {id} without uses_resource"))?
                            .clone();
                        node_res.push((id, r));
                    }
                }
                "edge" => {
                    if let Cur::Edge { src, dst } = std::mem::replace(&mut cur, Cur::None) {
                        edges.push((src, dst, edge_data.clone()));
                    }
                }
                _ => {}
            },
        }
    }
    for (id, rname) in node_res {
        let rid = *res_index
            .get(rname.as_str())
            .ok_or_else(|| format!("node {id}: resource `{rname}` not in the resource model"))?;
        let r = &rm[rid.index()];
        let idx = p.add_op(Op {
            name: format!("node_{id}"),
            resource: Some(rid),
            latency: r.latency,
            delay_ns: r.delay_ns,
            out_delay_ns: 0.0,
            in_delay_ns: 0.0,
            in_delay_from: Vec::new(),
        });
        if node_ids.insert(id.clone(), idx).is_some() {
            return Err(format!("duplicate node {id}"));
        }
    }
    for (src, dst, data) in edges {
        let s = *node_ids
            .get(&src)
            .ok_or_else(|| format!("edge from unknown node {src}"))?;
        let d = *node_ids
            .get(&dst)
            .ok_or_else(|| format!("edge to unknown node {dst}"))?;
        let delay = num(data.get("delay").map_or("0", String::as_str), "delay")?;
        let distance = num(data.get("distance").map_or("0", String::as_str), "distance")?;
        p.edges.push(Edge {
            src: s,
            dst: d,
            delay,
            distance,
        });
    }
    Ok(p)
}

/// The resource model next to a graph: `graphN.graphml` and `graphN.200MHz.graphml` both
/// use `graphN_RM.xml`.
pub fn rm_path(graph: &Path) -> Option<PathBuf> {
    let file = graph.file_name()?.to_str()?;
    let stem = file.strip_suffix(".graphml")?;
    let base = stem.split('.').next()?;
    Some(graph.with_file_name(format!("{base}_RM.xml")))
}

/// Loads one instance.
pub fn load(graph: &Path) -> Result<Problem, String> {
    let rm_file =
        rm_path(graph).ok_or_else(|| format!("{}: not a .graphml file", graph.display()))?;
    let rm_src =
        std::fs::read_to_string(&rm_file).map_err(|e| format!("{}: {e}", rm_file.display()))?;
    let rm = parse_rm(&rm_src).map_err(|e| format!("{}: {e}", rm_file.display()))?;
    let src = std::fs::read_to_string(graph).map_err(|e| format!("{}: {e}", graph.display()))?;
    parse_graph(&src, &rm).map_err(|e| format!("{}: {e}", graph.display()))
}

/// All `.graphml` files under `dir`, sorted.
pub fn instances(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for e in entries {
            let path = e.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "graphml") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The shared MachSuite directory.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scheduling-benchmarks/machsuite")
}
