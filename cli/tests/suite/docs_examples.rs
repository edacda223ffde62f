//! The documentation's examples run: every fenced `sh` block of `README.md` and `docs/*.md`,
//! from the repository root, with the `kubedv` just built first on `PATH` (the conventions are
//! docs/architecture.md §Tests):
//!
//! - lines continued with a trailing `\` are joined; blank lines and `#` comments are skipped;
//! - every other line runs with `sh -c`, standard input empty, and must run `kubedv` (`cat F |
//!   kubedv check -` is fine) — except the build's own commands, which are not run here:
//!   `cargo xtask NAME` must name a command of `xtask/src/main.rs`, `node SCRIPT` a script that
//!   exists, and other `cargo` lines are taken as written;
//! - a command exits 0, or N when a `# exit N` line follows it;
//! - a `text` or `xml` block right after the `sh` block (blank lines aside) lists lines that the
//!   block's commands print on stdout or stderr (surrounding spaces ignored; a line ending in
//!   `...` matches any line that begins with what precedes it); a `json` block right after it is
//!   part of what the block's last command prints on stdout (every key shown, with its value;
//!   array elements shown in order among the actual ones; `[]` only matches an empty array).
//!
//! A second test checks that every relative link of these files names a file that exists.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The repository root (the parent of `cli/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("cli/ is inside the repository").to_path_buf()
}

/// `README.md` and every `docs/*.md`, relative to the root.
fn doc_files() -> Vec<PathBuf> {
    let root = root();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| p.strip_prefix(&root).expect("docs/ is under the root").to_path_buf())
        .collect();
    docs.sort();
    docs.insert(0, PathBuf::from("README.md"));
    docs
}

fn read(file: &Path) -> String {
    std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// A fenced block of a Markdown file.
struct Block {
    /// What follows the opening fence (`sh`, `text`, `json`, ...).
    info: String,
    /// The line of the opening fence (1-based).
    line: usize,
    lines: Vec<String>,
    /// Only blank lines separate it from the block before it.
    follows_previous: bool,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    // Whether only blank lines were seen since the last block closed.
    let mut adjacent = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        match open.take() {
            Some(block) if trimmed == "```" => {
                out.push(block);
                adjacent = true;
            }
            Some(mut block) => {
                block.lines.push(line.to_string());
                open = Some(block);
            }
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let info = info.trim().to_string();
                    open = Some(Block { info, line: i + 1, lines: Vec::new(), follows_previous: adjacent });
                } else if !trimmed.is_empty() {
                    adjacent = false;
                }
            }
        }
    }
    out
}

/// A command of an `sh` block.
struct Cmd {
    /// Its line in the file (1-based).
    line: usize,
    text: String,
    /// The exit status expected.
    exit: i32,
}

/// The commands of an `sh` block, with the exit status each expects.
fn commands(block: &Block) -> Result<Vec<Cmd>, String> {
    // Lines continued with a trailing `\`, joined.
    let mut logical: Vec<(usize, String)> = Vec::new();
    let mut continued = false;
    for (i, raw) in block.lines.iter().enumerate() {
        let text = raw.trim();
        let (body, more) = match text.strip_suffix('\\') {
            Some(body) => (body.trim_end(), true),
            None => (text, false),
        };
        if continued {
            if let Some(last) = logical.last_mut() {
                last.1.push(' ');
                last.1.push_str(body);
            }
        } else {
            logical.push((block.line + 1 + i, body.to_string()));
        }
        continued = more;
    }
    let mut out: Vec<Cmd> = Vec::new();
    for (line, text) in logical {
        if text.is_empty() {
            continue;
        }
        if let Some(comment) = text.strip_prefix('#') {
            let status = comment.trim().strip_prefix("exit ").and_then(|n| n.trim().parse::<i32>().ok());
            if let Some(status) = status {
                match out.last_mut() {
                    Some(cmd) => cmd.exit = status,
                    None => return Err(format!("line {line}: `# exit {status}` before any command")),
                }
            }
            continue;
        }
        out.push(Cmd { line, text, exit: 0 });
    }
    Ok(out)
}

/// The words of a command line after its `NAME=value` environment assignments.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().skip_while(|w| w.contains('=') && !w.starts_with('-')).collect()
}

/// The commands `cargo xtask` knows (the `Some("name")` arms of `xtask/src/main.rs`).
fn xtask_commands() -> Vec<String> {
    read(Path::new("xtask/src/main.rs"))
        .split("Some(\"")
        .skip(1)
        .filter_map(|s| s.split_once('"').map(|(name, _)| name.to_string()))
        .collect()
}

/// `PATH` with the directory of the `kubedv` just built first.
fn path_with_kubedv() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_kubedv"));
    let mut dirs = vec![bin.parent().expect("the binary is in a directory").to_path_buf()];
    dirs.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    std::env::join_paths(dirs).expect("PATH can hold these directories")
}

/// Whether `actual` holds `expected`: every key of an object with a value that holds the one
/// shown, the elements of an array in order among the actual ones (`[]` only an empty array),
/// anything else equal.
fn holds(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => e.iter().all(|(k, v)| a.get(k).is_some_and(|av| holds(av, v))),
        (Value::Array(a), Value::Array(e)) if e.is_empty() => a.is_empty(),
        (Value::Array(a), Value::Array(e)) => {
            let mut rest = a.iter();
            e.iter().all(|ev| rest.any(|av| holds(av, ev)))
        }
        _ => actual == expected,
    }
}

/// Whether a line printed matches a line shown (`...` at its end: any line beginning so).
fn matches_line(actual: &[String], shown: &str) -> bool {
    match shown.strip_suffix("...") {
        Some(start) => actual.iter().any(|a| a.starts_with(start.trim_end())),
        None => actual.iter().any(|a| a == shown),
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_shell_example_of_the_docs_runs() {
    let root = root();
    let path = path_with_kubedv();
    let xtask = xtask_commands();
    let mut failures: Vec<String> = Vec::new();
    let mut ran = 0;
    for file in doc_files() {
        let name = file.display().to_string();
        let all = blocks(&read(&file));
        for (i, block) in all.iter().enumerate().filter(|(_, b)| b.info == "sh") {
            let cmds = match commands(block) {
                Ok(cmds) => cmds,
                Err(e) => {
                    failures.push(format!("{name}:{}: {e}", block.line));
                    continue;
                }
            };
            let mut outputs: Vec<Output> = Vec::new();
            for cmd in &cmds {
                let at = format!("{name}:{}: `{}`", cmd.line, cmd.text);
                let w = words(&cmd.text);
                match w.first().copied() {
                    Some("cargo") => {
                        if w.get(1) == Some(&"xtask") && !w.get(2).is_some_and(|c| xtask.iter().any(|x| x == c)) {
                            failures.push(format!("{at}: not a command of xtask/src/main.rs"));
                        }
                        continue;
                    }
                    Some("node") => {
                        let script = w[1..].iter().find(|a| !a.starts_with('-'));
                        if !script.is_some_and(|s| root.join(s).is_file()) {
                            failures.push(format!("{at}: no such script"));
                        }
                        continue;
                    }
                    _ => {}
                }
                if !cmd.text.split_whitespace().any(|word| word == "kubedv") {
                    failures.push(format!("{at}: an example runs kubedv, cargo xtask or node"));
                    continue;
                }
                let out = Command::new("sh")
                    .arg("-c")
                    .arg(&cmd.text)
                    .current_dir(&root)
                    .env("PATH", &path)
                    .stdin(Stdio::null())
                    .output()
                    .expect("sh runs");
                ran += 1;
                if out.status.code() != Some(cmd.exit) {
                    failures.push(format!(
                        "{at}: exit status {:?}, the docs say {}\n--- stdout\n{}--- stderr\n{}",
                        out.status.code(),
                        cmd.exit,
                        lossy(&out.stdout),
                        lossy(&out.stderr)
                    ));
                }
                outputs.push(out);
            }
            // The block shown after the commands: what they print.
            let Some(shown) = all.get(i + 1).filter(|b| b.follows_previous) else { continue };
            match shown.info.as_str() {
                "json" => {
                    let expected: Value = match serde_json::from_str(&shown.lines.join("\n")) {
                        Ok(v) => v,
                        Err(e) => {
                            failures.push(format!("{name}:{}: the JSON shown does not parse: {e}", shown.line));
                            continue;
                        }
                    };
                    let stdout = outputs.last().map(|o| lossy(&o.stdout)).unwrap_or_default();
                    match serde_json::from_str::<Value>(&stdout) {
                        Ok(actual) if holds(&actual, &expected) => {}
                        Ok(actual) => failures.push(format!(
                            "{name}:{}: the JSON printed does not hold the JSON shown\n--- printed\n{}",
                            shown.line,
                            serde_json::to_string_pretty(&actual).unwrap_or_default()
                        )),
                        Err(e) => failures.push(format!(
                            "{name}:{}: the last command printed no JSON ({e})\n--- stdout\n{stdout}",
                            shown.line
                        )),
                    }
                }
                "text" | "xml" => {
                    let text: String =
                        outputs.iter().map(|o| format!("{}\n{}\n", lossy(&o.stdout), lossy(&o.stderr))).collect();
                    let printed: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
                    for (j, line) in shown.lines.iter().enumerate() {
                        let line = line.trim();
                        if !line.is_empty() && !matches_line(&printed, line) {
                            failures.push(format!(
                                "{name}:{}: not printed: {line}\n--- printed\n{}",
                                shown.line + 1 + j,
                                printed.join("\n")
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{} failing examples:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(ran >= 30, "only {ran} examples ran: are the docs where this test looks?");
}

/// A Markdown text with its fenced blocks and code spans blanked out, line breaks kept.
fn prose(text: &str) -> String {
    let mut fenced = false;
    let unfenced: Vec<&str> = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                ""
            } else if fenced {
                ""
            } else {
                l
            }
        })
        .collect();
    // Outside and inside code spans by turns.
    let mut out = String::new();
    let mut code = false;
    for part in unfenced.join("\n").split('`') {
        match code {
            true => out.push_str(&"\n".repeat(part.matches('\n').count())),
            false => out.push_str(part),
        }
        code = !code;
    }
    out
}

#[test]
fn every_relative_link_of_the_docs_names_a_file() {
    let root = root();
    let mut broken: Vec<String> = Vec::new();
    for file in doc_files() {
        let dir = root.join(&file).parent().expect("a file is in a directory").to_path_buf();
        for (i, line) in prose(&read(&file)).lines().enumerate() {
            for rest in line.split("](").skip(1) {
                let Some((target, _)) = rest.split_once(')') else { continue };
                let target = target.split_whitespace().next().unwrap_or_default();
                if target.is_empty()
                    || target.starts_with('#')
                    || target.contains("://")
                    || target.starts_with("mailto:")
                {
                    continue;
                }
                let path = target.split('#').next().unwrap_or_default();
                if !dir.join(path).exists() {
                    broken.push(format!("{}:{}: {target}", file.display(), i + 1));
                }
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing:\n{}", broken.join("\n"));
}
