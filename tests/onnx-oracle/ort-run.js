// SPDX-License-Identifier: GPL-2.0 OR MIT
// ort-run.js - run ONNX models in ONNX Runtime (the npm package
// onnxruntime-node, its CPU provider) and report every output's type and
// shape: the oracle of tests/onnx-oracle/oracle.py.
//
//	node ort-run.js ORT_DIR < JOBS
//
// ORT_DIR is the npm prefix onnxruntime-node was installed into
// (tests/deps.sh). One job a line on stdin, JSON:
//	{"model": PATH, "feeds": [{"name", "type", "dims", "file"}...]}
// with each input's raw little-endian bytes in "file" ("type" as
// onnxruntime-node names it: float32, int64, bool, ...). One answer a line
// on stdout, in order:
//	{"ok": true, "outputs": {NAME: {"type", "dims"}...}}
//	{"ok": false, "error": TEXT}
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const ort = require(path.join(process.argv[2], 'node_modules', 'onnxruntime-node'));

const ARRAYS = {
	float32: Float32Array, float64: Float64Array, int8: Int8Array,
	uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
	int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array,
	uint64: BigUint64Array, bool: Uint8Array, float16: Uint16Array,
};

function feedTensor(f) {
	const Ctor = ARRAYS[f.type];
	if (!Ctor)
		throw new Error(`input ${f.name}: type ${f.type} not supported here`);
	const raw = new Uint8Array(fs.readFileSync(f.file)); // a copy, aligned
	return new ort.Tensor(f.type, new Ctor(raw.buffer, 0, raw.length / Ctor.BYTES_PER_ELEMENT), f.dims);
}

async function runJob(job) {
	const session = await ort.InferenceSession.create(job.model, {
		graphOptimizationLevel: 'disabled',
		intraOpNumThreads: 1,
		interOpNumThreads: 1,
		logSeverityLevel: 3,
	});
	const feeds = {};
	for (const f of job.feeds)
		feeds[f.name] = feedTensor(f);
	const results = await session.run(feeds);
	const outputs = {};
	for (const [name, t] of Object.entries(results))
		outputs[name] = { type: t.type, dims: Array.from(t.dims, Number) };
	await session.release();
	return outputs;
}

async function main() {
	ort.env.logLevel = 'error';
	const rl = readline.createInterface({ input: process.stdin, terminal: false });
	for await (const line of rl) {
		if (!line.trim())
			continue;
		let answer;
		try {
			answer = { ok: true, outputs: await runJob(JSON.parse(line)) };
		} catch (e) {
			answer = { ok: false, error: String(e && e.message || e).split('\n')[0] };
		}
		process.stdout.write(JSON.stringify(answer) + '\n');
	}
}

main().catch((e) => { console.error(e); process.exit(1); });
