//! Browser end-to-end tests (run by `cargo xtask test` after the builds).
//!
//! Serves the built playground (`dist/`) and the `www/` page on 127.0.0.1, starts the local
//! chromedriver with headless Chromium, types into the pages and checks what they show.
//! Screenshots go to `target/e2e/`. Prints one line per test and `N passed, M failed`.

mod server;
mod webdriver;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use webdriver::Browser;

/// What the playground must show for `My_Name` as a `k8s-short-name` at `metadata.name`:
/// apimachinery pkg/api/validate/strfmt.go (ShortName) + content/dns.go (IsDNS1123Label).
const SHORT_NAME_ERROR: &str = "metadata.name: Invalid value: \"My_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

struct Config {
    root: PathBuf,
    chromium: String,
    chromedriver: String,
}

fn main() -> ExitCode {
    let root = std::env::var_os("KUBEDV_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root"));
    let config = Config {
        root,
        chromium: std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
        chromedriver: std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into()),
    };
    let shots = config.root.join("target/e2e");
    if let Err(e) = std::fs::create_dir_all(&shots) {
        eprintln!("e2e: cannot create {}: {e}", shots.display());
        return ExitCode::from(2);
    }
    let mut browser = match Browser::start(&config.chromedriver, &config.chromium) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("e2e: cannot start headless Chromium: {e}");
            return ExitCode::from(2);
        }
    };

    type Test = fn(&mut Browser, &Config, &Path) -> Result<(), String>;
    let tests: [(&str, Test); 3] = [
        ("playground shows Kubernetes' error for an invalid short name", playground_invalid),
        ("playground shows a valid value as valid and follows the format picker", playground_valid),
        ("www page runs the npm package in the browser", www_page),
    ];
    let (mut passed, mut failed) = (0, 0);
    for (name, test) in tests {
        match test(&mut browser, &config, &shots) {
            Ok(()) => {
                passed += 1;
                println!("ok   {name}");
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {name}\n     {e}");
            }
        }
    }
    browser.quit();
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn serve_playground(config: &Config) -> Result<server::Server, String> {
    let dist = config.root.join("dist");
    if !dist.join("index.html").is_file() {
        return Err(format!("{} has no built playground: run `trunk build --release` first", dist.display()));
    }
    server::Server::start(dist)
}

fn playground_invalid(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let server = serve_playground(config)?;
    browser.goto(&server.url("/"))?;
    let value = browser.wait_for("#value", Duration::from_secs(30))?;
    browser.clear(&value)?;
    browser.type_text(&value, "My_Name")?;
    let result = browser.wait_for_text("#result", SHORT_NAME_ERROR, Duration::from_secs(10));
    browser.screenshot(&shots.join("playground.png"))?;
    result
}

fn playground_valid(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let server = serve_playground(config)?;
    browser.goto(&server.url("/"))?;
    let value = browser.wait_for("#value", Duration::from_secs(30))?;
    browser.clear(&value)?;
    browser.type_text(&value, "example.com/gpu")?;
    // Not a short name (it has '/' and '.'), but a valid label key once the picker says so.
    browser.wait_for_text("#result", "metadata.name: Invalid value: \"example.com/gpu\"", Duration::from_secs(10))?;
    browser.select_option("#format", "k8s-label-key")?;
    let result = browser.wait_for_text("#result", "valid k8s-label-key", Duration::from_secs(10));
    browser.screenshot(&shots.join("playground-valid.png"))?;
    result
}

fn www_page(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let www = config.root.join("www");
    if !www.join("node_modules/kubedv/package.json").is_file() {
        return Err("www/node_modules/kubedv is missing: build the npm package and run `npm install` in www/".into());
    }
    let server = server::Server::start(www)?;
    browser.goto(&server.url("/index.html"))?;
    let input = browser.wait_for("#value", Duration::from_secs(30))?;
    browser.clear(&input)?;
    browser.type_text(&input, "Bad.Label")?;
    let expected = "<nil>: Invalid value: \"Bad.Label\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters";
    let result = browser.wait_for_text("#out", expected, Duration::from_secs(10));
    browser.screenshot(&shots.join("www.png"))?;
    result?;
    browser.wait_for_text("#version", "kubedv ", Duration::from_secs(5))
}
