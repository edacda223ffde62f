//! Just enough of the W3C WebDriver protocol to drive headless Chromium through the locally
//! installed chromedriver (nothing is downloaded).

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use serde_json::{json, Value};

/// The key WebDriver uses for element references.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

pub struct Browser {
    driver: Child,
    base: String,
    profile: std::path::PathBuf,
}

pub struct Element(String);

impl Browser {
    /// Starts chromedriver on a free loopback port and opens a headless Chromium session.
    pub fn start(chromedriver: &str, chromium: &str) -> Result<Browser, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {chromedriver}: {e} (run `cargo xtask setup`)"))?;
        let profile = std::env::temp_dir().join(format!("kubedv-e2e-profile-{}", std::process::id()));
        let mut browser = Browser { driver, base: format!("http://127.0.0.1:{port}"), profile };
        let deadline = Instant::now() + Duration::from_secs(20);
        while ureq::get(&format!("{}/status", browser.base)).call().is_err() {
            if Instant::now() > deadline {
                return Err("chromedriver did not answer within 20 s".into());
            }
            sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--window-size=1200,900",
        ];
        let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", browser.profile.display()));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args}
        }}});
        let session = browser.request("POST", "/session", Some(caps))?;
        let id = session["sessionId"].as_str().ok_or("chromedriver returned no session id")?;
        browser.base = format!("{}/session/{id}", browser.base);
        Ok(browser)
    }

    fn request(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let response = match body {
            Some(body) => ureq::request(method, &url).send_json(body),
            None => ureq::request(method, &url).call(),
        };
        let reply: Value = match response {
            Ok(r) => r.into_json().map_err(|e| format!("{method} {path}: {e}"))?,
            Err(ureq::Error::Status(_, r)) => r.into_json().map_err(|e| format!("{method} {path}: {e}"))?,
            Err(e) => return Err(format!("{method} {path}: {e}")),
        };
        let value = reply.get("value").cloned().unwrap_or(Value::Null);
        if let Some(err) = value.get("error").and_then(Value::as_str) {
            let msg = value.get("message").and_then(Value::as_str).unwrap_or("");
            return Err(format!("{method} {path}: {err}: {}", msg.lines().next().unwrap_or("")));
        }
        Ok(value)
    }

    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.request("POST", "/url", Some(json!({ "url": url }))).map(drop)
    }

    fn find(&self, css: &str) -> Result<Element, String> {
        let v = self.request("POST", "/element", Some(json!({"using": "css selector", "value": css})))?;
        v[ELEMENT_KEY].as_str().map(|id| Element(id.to_string())).ok_or_else(|| format!("no element {css}"))
    }

    /// Waits until an element matching `css` exists (the wasm app renders after loading).
    pub fn wait_for(&self, css: &str, timeout: Duration) -> Result<Element, String> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.find(css) {
                Ok(el) => return Ok(el),
                Err(e) if Instant::now() > deadline => return Err(format!("waited {timeout:?} for {css}: {e}")),
                Err(_) => sleep(Duration::from_millis(100)),
            }
        }
    }

    pub fn text(&self, css: &str) -> Result<String, String> {
        let el = self.find(css)?;
        let v = self.request("GET", &format!("/element/{}/text", el.0), None)?;
        Ok(v.as_str().unwrap_or("").to_string())
    }

    /// Waits until the text of `css` contains `expected`; the error shows what was there.
    pub fn wait_for_text(&self, css: &str, expected: &str, timeout: Duration) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        loop {
            let text = self.text(css).unwrap_or_default();
            if text.contains(expected) {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("{css} shows {text:?}, expected it to contain {expected:?}"));
            }
            sleep(Duration::from_millis(100));
        }
    }

    /// An element's DOM property (`value` of a textarea, `checked` of a checkbox).
    pub fn property(&self, css: &str, name: &str) -> Result<Value, String> {
        let el = self.find(css)?;
        self.request("GET", &format!("/element/{}/property/{name}", el.0), None)
    }

    pub fn click(&self, css: &str) -> Result<(), String> {
        let el = self.find(css)?;
        self.request("POST", &format!("/element/{}/click", el.0), Some(json!({}))).map(drop)
    }

    pub fn refresh(&self) -> Result<(), String> {
        self.request("POST", "/refresh", Some(json!({}))).map(drop)
    }

    /// Replaces a field's text the way a user does: select all, then type (so the page sees
    /// real input events; WebDriver's clear fires none the page can rely on).
    pub fn replace_text(&self, el: &Element, text: &str) -> Result<(), String> {
        // U+E009 is Control, U+E000 releases the modifiers.
        self.type_text(el, "\u{E009}a\u{E000}")?;
        self.type_text(el, text)
    }

    pub fn clear(&self, el: &Element) -> Result<(), String> {
        self.request("POST", &format!("/element/{}/clear", el.0), Some(json!({}))).map(drop)
    }

    pub fn type_text(&self, el: &Element, text: &str) -> Result<(), String> {
        self.request("POST", &format!("/element/{}/value", el.0), Some(json!({ "text": text }))).map(drop)
    }

    /// Picks the `<option value=...>` of a `<select>` the way a user does: by clicking it.
    pub fn select_option(&self, select_css: &str, value: &str) -> Result<(), String> {
        let option = self.find(&format!("{select_css} option[value=\"{value}\"]"))?;
        self.request("POST", &format!("/element/{}/click", option.0), Some(json!({}))).map(drop)
    }

    /// Runs a script in the page (`arguments[0]`... are `args`) and returns its result.
    pub fn execute(&self, script: &str, args: Value) -> Result<Value, String> {
        self.request("POST", "/execute/sync", Some(json!({ "script": script, "args": args })))
    }

    /// Moves the mouse pointer to a point of the viewport (WebDriver actions).
    pub fn hover(&self, x: f64, y: f64) -> Result<(), String> {
        let actions = json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x.round() as i64, "y": y.round() as i64}]}]});
        self.request("POST", "/actions", Some(actions)).map(drop)
    }

    /// Resizes the window (a phone-sized viewport, and back).
    pub fn set_window_size(&self, width: u32, height: u32) -> Result<(), String> {
        self.request("POST", "/window/rect", Some(json!({ "width": width, "height": height }))).map(drop)
    }

    /// Emulates `prefers-color-scheme` (Chrome DevTools Protocol through chromedriver).
    pub fn color_scheme(&self, scheme: &str) -> Result<(), String> {
        let params = json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] });
        self.request(
            "POST",
            "/goog/cdp/execute",
            Some(json!({ "cmd": "Emulation.setEmulatedMedia", "params": params })),
        )
        .map(drop)
    }

    pub fn screenshot(&self, path: &Path) -> Result<(), String> {
        let png = self.request("GET", "/screenshot", None)?;
        let bytes = BASE64.decode(png.as_str().unwrap_or("")).map_err(|e| format!("screenshot was not base64: {e}"))?;
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    pub fn quit(mut self) {
        let _ = self.request("DELETE", "", None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
