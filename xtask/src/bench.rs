//! `cargo xtask bench`: one table of the same workloads run natively (the core example
//! `bench_native`), in WebAssembly under Node (www/bench/cel.mjs, www/bench/validate.mjs, on
//! the built npm package: run `cargo xtask npm` and `npm install` in www/ first; the package's
//! Node build and its web build loaded in one process and timed in turns) and by
//! @marcbachmann/cel-js, measured in one run. Full runs are by hand; CI runs the benchmarks'
//! agreement checks only (www/test/bench.test.mjs).

use std::collections::BTreeMap;

use crate::env::Env;

pub fn run(env: &Env) -> Result<(), String> {
    let mut native = env.command("cargo");
    native.args(["run", "--quiet", "--release", "-p", "kubedv-core", "--example", "bench_native"]);
    let native = output(&mut native, "the native benchmark")?;
    let native: BTreeMap<String, f64> = native
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .filter_map(|(k, v)| Some((k.to_string(), v.parse().ok()?)))
        .collect();
    let script = "import { run } from './bench/cel.mjs'; import { run as validate } from './bench/validate.mjs'; \
                  const v = validate(); console.log(JSON.stringify({ cel: run(), validate: { node: v.perThousand, web: v.web } }));";
    let mut node = env.command("node");
    node.current_dir(env.root.join("www")).args(["--input-type=module", "-e", script]);
    let wasm: serde_json::Value = serde_json::from_str(output(&mut node, "the Node benchmarks")?.trim())
        .map_err(|e| format!("bench: the Node benchmarks printed no JSON: {e}"))?;
    println!("CEL, ns per evaluation (median of 7 rounds); ratios to cel-js and to test(celVars)");
    println!(
        "{:<15} {:>7} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7}   {:>9} {:>9} {:>9} {:>9}",
        "rule",
        "native",
        "native+",
        "vars",
        "obj",
        "eval obj",
        "web vars",
        "web obj",
        "cel-js",
        "obj/cel",
        "eval/cel",
        "obj/vars",
        "web obj/cel"
    );
    for row in wasm["cel"].as_array().into_iter().flatten() {
        let name = row["name"].as_str().unwrap_or("?");
        let f = |k: &str| row[k].as_f64().unwrap_or(f64::NAN);
        let (vars, obj, eval, cel_js) = (f("test"), f("plainTest"), f("plain"), f("celJs"));
        let (web_vars, web_obj) = (f("webTest"), f("webPlainTest"));
        let n = |k: &str| native.get(&format!("{k} {name}")).copied().unwrap_or(f64::NAN);
        println!(
            "{name:<15} {:>7.0} {:>8.0} {vars:>10.0} {obj:>10.0} {eval:>10.0} {web_vars:>10.0} {web_obj:>10.0} {cel_js:>7.0}   {:>8.2}x {:>8.2}x {:>8.2}x {:>8.2}x",
            n("cel"),
            n("cel-text"),
            obj / cel_js,
            eval / cel_js,
            obj / vars,
            web_obj / cel_js,
        );
    }
    println!("  native: variables bound once; native+: parsing the object's JSON text each time too;");
    println!(
        "  vars: program.test(celVars); obj: program.test({{self}}); eval obj: program.eval({{self}}) (Node build);"
    );
    println!("  web: the same calls in the web build (built for size)");
    let ms = |v: Option<f64>| v.unwrap_or(f64::NAN);
    let native_ms = ms(native.get("validate").copied()) / 1e6;
    let (node_ms, web_ms) = (ms(wasm["validate"]["node"].as_f64()), ms(wasm["validate"]["web"].as_f64()));
    println!(
        "validate 1,000 Deployments: native {native_ms:.1} ms (parsing included), Node build {node_ms:.1} ms ({:.2}x), web build {web_ms:.1} ms ({:.2}x)",
        node_ms / native_ms,
        web_ms / native_ms
    );
    Ok(())
}

fn output(cmd: &mut std::process::Command, what: &str) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("bench: cannot run {what}: {e}"))?;
    if !out.status.success() {
        return Err(format!("bench: {what} failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
