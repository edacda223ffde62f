//! Helpers more than one module uses.

use assert_cmd::Command;

/// The `kubedv` binary just built, to be given arguments.
pub fn command() -> Command {
    Command::cargo_bin("kubedv").unwrap()
}

/// Runs the `kubedv` binary just built with these arguments, standard input empty.
pub fn kubedv(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("kubedv").unwrap().args(args).output().unwrap()
}
