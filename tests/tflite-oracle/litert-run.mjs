// SPDX-License-Identifier: GPL-2.0 OR MIT
// litert-run.mjs - run TFLite models in LiteRT (the npm package
// @litertjs/core: TFLite's runtime built to WebAssembly, its CPU path) and
// report every output's shape, or the tensors the runtime found recorded
// too small: the oracle of tests/tflite-oracle/oracle.py.
//
//	node litert-run.mjs LITERT_DIR < JOBS
//
// LITERT_DIR is the npm prefix @litertjs/core was installed into
// (tests/deps.sh); the package's module is loaded from a copy beside it
// that also maps int8, int16 and int64 tensors (widened() below). One job
// a line on stdin, JSON: {"model": PATH, "feeds": [VALUES or null...]};
// the model's inputs are fed at the shapes it records, input k the values
// feeds[k] (repeated to fill it) or zeros. One answer a line on stdout,
// in order:
//	{"ok": true, "outputs": [{"name", "dims"}...]}	in the model's order
// (an int32, int64 or float32 output of at most 16 elements has "values"
// too: the oracle reads the shape of a tensor the runtime sized when it
// ran from a SHAPE of it)
//	{"ok": false, "error": TEXT, "too_small": [TENSOR...]}
// "too_small": the tensors whose recorded size the runtime found smaller
// than the shape its kernels computed ("Custom allocation is too small
// for tensor idx: N"): it refuses to run the model.
import fs from 'fs';
import path from 'path';
import readline from 'readline';
import vm from 'vm';
import { createRequire } from 'module';

const prefix = process.argv[2];
const wasmDir = path.join(prefix, 'node_modules', '@litertjs', 'core', 'wasm');
// The package is written for a browser: its loader runs the Emscripten
// script with importScripts() and reads self; give it those in Node.
globalThis.require = createRequire(path.join(wasmDir, 'x.js'));
globalThis.__dirname = wasmDir;
globalThis.self = globalThis;
globalThis.importScripts = (u) => {
	const f = String(u).replace(/^file:\/\//, '');
	vm.runInThisContext(fs.readFileSync(f, 'utf8'), { filename: f });
};

// the runtime's messages: its complaints are part of the answer
let said = [];
for (const k of ['log', 'info', 'warn', 'error'])
	console[k] = (...a) => { said.push(a.join(' ')); };
process.stderr.write = (s) => { said.push(String(s)); return true; };

// an input's array by its dtype: the widened module's six
const ARRAYS = {
	float32: Float32Array, int32: Int32Array, int8: Int8Array,
	uint8: Uint8Array, int16: Int16Array, int64: BigInt64Array,
};

// The package's JavaScript maps only float32, int32 and uint8 tensors to
// typed arrays, though its runtime holds the others: most NPU models take
// and give int8 (and deeplab an int64). A copy of its module, beside it,
// lists int8, int16 and int64 too (bool shares uint8's array, and is
// left out: it would take uint8's tensors); made once, refreshed when the
// package changes, and the run fails if the list is not where it was.
function widened(dist) {
	const src = fs.readFileSync(path.join(dist, 'index.js'), 'utf8');
	const anchor = 'var DATATYPES = Object.freeze([';
	if (!src.includes(anchor))
		throw new Error(`${dist}/index.js: no "${anchor}" to widen`);
	const more = [['int8', 'Int8Array', 'INT8'], ['int16', 'Int16Array', 'INT16'],
		      ['int64', 'BigInt64Array', 'INT64']]
		.map(([d, c, e]) => `{ dtype: "${d}", typedArrayConstructor: ${c}, elementType: ElementType.${e} },`)
		.join('\n');
	const out = src.replace(anchor, `${anchor}\n${more}`);
	const file = path.join(dist, 'index.ta-widened.js');
	if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== out) {
		fs.writeFileSync(`${file}.${process.pid}`, out);
		fs.renameSync(`${file}.${process.pid}`, file);
	}
	return file;
}

const core = await import(widened(path.join(prefix, 'node_modules', '@litertjs', 'core', 'dist')));

async function runJob(job) {
	said = [];
	const model = await core.loadAndCompile(new Uint8Array(fs.readFileSync(job.model)),
						{ accelerator: 'wasm' });
	const outs = model.getOutputDetails();
	const feeds = model.getInputDetails().map((d, k) => {
		const dims = Object.values(d.shape);
		const Ctor = ARRAYS[d.dtype];
		if (!Ctor)
			throw new Error(`input ${d.name}: type ${d.dtype} not fed here`);
		const a = new Ctor(dims.reduce((x, y) => x * y, 1));
		const v = job.feeds && job.feeds[k];
		if (v)
			for (let i = 0; i < a.length; i++)
				a[i] = Ctor === BigInt64Array ? BigInt(v[i % v.length]) : v[i % v.length];
		return new core.Tensor(a, dims);
	});
	const results = await model.run(feeds);
	const tooSmall = [];
	for (const s of said) {
		const m = /Custom allocation is too small for tensor idx: (\d+)/.exec(s);
		if (m)
			tooSmall.push(Number(m[1]));
	}
	const failed = said.find((s) => /ERROR/.test(s));
	const outputs = [];
	for (const [i, t] of results.entries()) {
		const w = await t.moveTo('wasm');
		const o = { name: outs[i].name, dims: Array.from(w.type.layout.dimensions, Number) };
		// a small integer output's values (a SHAPE's: what a tensor
		// sized when the model ran came out at)
		if ((w.type.dtype === 'int32' || w.type.dtype === 'int64' || w.type.dtype === 'float32') &&
		    o.dims.reduce((a, b) => a * b, 1) <= 16)
			o.values = Array.from(await w.data(), Number);
		outputs.push(o);
		w.delete();
	}
	for (const f of feeds)
		f.delete();
	model.delete();
	if (failed)
		return { ok: false, error: failed.trim().split('\n')[0], too_small: tooSmall };
	return { ok: true, outputs };
}

await core.loadLiteRt(wasmDir + '/');
const rl = readline.createInterface({ input: process.stdin, terminal: false });
for await (const line of rl) {
	if (!line.trim())
		continue;
	let answer;
	try {
		answer = await runJob(JSON.parse(line));
	} catch (e) {
		answer = { ok: false, error: String(e && e.message || e).split('\n')[0], too_small: [] };
	}
	process.stdout.write(JSON.stringify(answer) + '\n');
}
process.exit(0);
