// SPDX-License-Identifier: GPL-2.0 OR MIT
// tflite-web-run.cjs - run TFLite models in TFLite's interpreter built to
// WebAssembly (the npm package @tensorflow/tfjs-tflite: its
// tflite_web_api module, without the package's browser wrapper) and
// report every output's shape: the oracle's second runtime, for the
// models LiteRT does not load (variable tensors: the SVDF and LSTM
// models). Unlike LiteRT it does not check a recorded shape: its kernels
// resize each output in Prepare(), and the shapes it reports are theirs.
//
//	node tflite-web-run.cjs PREFIX < JOBS
//
// PREFIX is the npm prefix the package was installed into (tests/deps.sh).
// One job a line on stdin, JSON: {"model": PATH}; the inputs are fed
// zeros. One answer a line on stdout, in order:
//	{"ok": true, "outputs": [{"dims": [...], "type": NAME}...]}
// in the model's output order, or {"ok": false, "error": TEXT}.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const wasmDir = path.join(process.argv[2], 'node_modules', '@tensorflow',
			  'tfjs-tflite', 'wasm');

// the runtime's messages: its complaints are part of the answer
let said = [];
for (const k of ['log', 'info', 'warn', 'error'])
	console[k] = (...a) => { said.push(a.join(' ')); };

function dims(shape) {
	return shape === '' ? [] : String(shape).split(',').map(Number);
}

function run(mod, file) {
	const buf = fs.readFileSync(file);
	const p = mod._malloc(buf.length);
	mod.HEAPU8.set(buf, p);
	const made = mod.TFLiteWebModelRunner.CreateFromBufferAndOptions(
		p, buf.length, { numThreads: -1, enableProfiling: false,
				 maxProfilingBufferEntries: 1024 });
	if (!made.ok())
		return { ok: false, error: made.errorMessage() };
	const runner = made.value();
	const list = (v) => {
		const a = [];
		for (let i = 0; i < v.size(); i++)
			a.push(v.get(i));
		v.delete();
		return a;
	};
	for (const t of list(runner.GetInputs())) {
		const d = t.data();
		if (d && d.fill)
			d.fill(0);
	}
	if (!runner.Infer())
		return { ok: false, error: said.join(' ') || 'Invoke failed' };
	return { ok: true, outputs: list(runner.GetOutputs()).map((t) => ({
		dims: dims(t.shape), type: t.dataType })) };
}

(async () => {
	// Node's fetch() does not read files: the wasm is handed over
	const mod = await require(path.join(wasmDir, 'tflite_web_api_cc.js'))({
		wasmBinary: fs.readFileSync(path.join(wasmDir,
						      'tflite_web_api_cc.wasm')),
	});
	const rl = readline.createInterface({ input: process.stdin });
	for await (const line of rl) {
		let ans;

		said = [];
		try {
			ans = run(mod, JSON.parse(line).model);
		} catch (e) {
			ans = { ok: false, error: String(e) };
		}
		if (!ans.ok && said.length)
			ans.error += ' (' + said.join(' ').slice(0, 300) + ')';
		process.stdout.write(JSON.stringify(ans) + '\n');
	}
})();
