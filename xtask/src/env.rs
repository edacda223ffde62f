//! Where things are and how commands run: every child process sees the locally installed
//! tools first on PATH (`.tools/node_modules/.bin` for wasm-opt, cargo's bin directory) and
//! the local chromedriver, so no tool ever tries to download one.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct Env {
    pub root: PathBuf,
    pub tools: PathBuf,
    path: OsString,
}

/// Where Debian's packages put the browser and its driver.
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

impl Env {
    pub fn new() -> Env {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf();
        let tools = root.join(".tools");
        let cargo_bin = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
            .unwrap_or_default()
            .join("bin");
        let mut dirs = vec![tools.join("node_modules/.bin"), cargo_bin];
        dirs.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
        let path = std::env::join_paths(dirs).expect("PATH entries without separators");
        Env { root, tools, path }
    }

    /// A command run from the workspace root with the local tools on PATH.
    pub fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.root).env("PATH", &self.path).env("CHROMEDRIVER", CHROMEDRIVER);
        cmd
    }

    /// Runs `cmd`, streaming its output; fails naming `what`.
    pub fn run(&self, what: &str, cmd: &mut Command) -> Result<(), String> {
        println!("==> {what}");
        let status = cmd.status().map_err(|e| format!("{what}: cannot start {:?}: {e}", cmd.get_program()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{what} failed ({status})"))
        }
    }

    /// The trimmed stdout of a command, or `None` when it cannot run or fails.
    pub fn output(&self, program: &str, args: &[&str]) -> Option<String> {
        let out = self.command(program).args(args).stderr(Stdio::null()).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }
}
