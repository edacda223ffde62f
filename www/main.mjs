// The browser side of the example: the ES module from the npm package, no bundler.
import init, { checkFormat, formats, version } from "./node_modules/kubedv/kubedv.js";

await init();

const select = document.getElementById("format");
const input = document.getElementById("value");
const out = document.getElementById("out");

for (const { name, summary } of formats()) {
  select.add(new Option(name, name));
  select.lastElementChild.title = summary;
}
document.getElementById("version").textContent = `kubedv ${version()}`;

function update() {
  const errors = checkFormat(select.value, input.value);
  out.textContent = errors.length === 0 ? `valid ${select.value}` : errors.map((e) => e.text).join("\n");
}
select.addEventListener("change", update);
input.addEventListener("input", update);
update();
