#!/bin/bash
# The ONNX importer against ONNX Runtime (Documentation/onnx.md, "The
# oracle"): every model of libonnx-testdata, every model of corpus/, and
# ONNX_ORACLE_MODELS random models from seed ONNX_ORACLE_SEED (make check:
# 500 from seed 26, reproducible; make fuzz: ONNX_ORACLE_SEED=random, more
# models, and the failing ones join corpus/ through ONNX_ORACLE_SAVE). TAP on
# stdout, one result a model; the run fails unless all 1,072 backend models
# and every random model asked for ran, at least 564 + a fifth of the random
# ones were checked at another batch through --dim (564: the backend's and
# corpus/'s that ONNX Runtime runs so and tactl accepts), and the random
# models used every op type of the importer's inference table (ta_ox_ops[]
# in ta_onnx.c).
#
#	tests/onnx-oracle/oracle.sh [oracle.py options]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/ort-version.sh"
backend=/usr/share/libonnx-testdata/data
models=${ONNX_ORACLE_MODELS:-500}
seed=${ONNX_ORACLE_SEED:-26}
save=${ONNX_ORACLE_SAVE:-$root/build/onnx-oracle/failed}
[ "$seed" = random ] && seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
seed=$((seed % 2147483648))
tactl=$root/userspace/bin/tactl
for need in "$TA_ORT_DIR/.installed" "$backend" "$tactl"; do
	if [ ! -e "$need" ]; then
		echo "not ok - onnx-oracle: $need is missing (make deps; make -C userspace)"
		exit 1
	fi
done
exec /usr/bin/python3 "$here/oracle.py" --tactl "$tactl" --ort "$TA_ORT_DIR" \
	--backend "$backend" --corpus "$here/corpus" --random "$models" --seed "$seed" \
	--save "$save" --jobs "$(nproc)" --min-backend 1072 --min-random "$models" \
	--min-batched $((564 + models / 5)) \
	--table "$root/userspace/lib/ta_onnx.c" "$@"
