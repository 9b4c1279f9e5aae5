#!/bin/bash
# The TFLite reader against TFLite's runtime (Documentation/tflite.md,
# "Against TFLite's runtime"): every model of ../shared/models (TA_SHARED
# overrides the folder), of tests/data and the oracle's 67 one-op models
# (6 of them recording an output type smaller than the kernel's), as they
# are and with each tensor their ops write recorded one smaller
# (40 at most a model), run in LiteRT (@litertjs/core, installed by
# tests/deps.sh), and its 16 one-op models fed other values than their
# recorded shapes hold. TAP on stdout, one result a model and one a
# mutation; the models LiteRT does not load (variable tensors: the SVDF and
# LSTM ones; person_detect, its quantization repaired) run in TFLite's
# interpreter of @tensorflow/tfjs-tflite. The run fails unless 101 of the
# models ran (7 shared and 3 more in the second runtime, 7 of tests/data
# and 1 more, 67 one-op, 16 fed) and 325 mutations were judged.
#
#	tests/tflite-oracle/oracle.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/litert-version.sh"
. "$here/tflite-web-version.sh"
models=${TA_SHARED:-$root/../shared}
[ -d "$models/models" ] && models=$models/models
tactl=$root/userspace/bin/tactl
for need in "$TA_LITERT_DIR/.installed" "$TA_TFLITE_WEB_DIR/.installed" "$models" "$tactl"; do
	if [ ! -e "$need" ]; then
		echo "not ok - tflite-oracle: $need is missing (make deps; make -C userspace)"
		exit 1
	fi
done
exec /usr/bin/python3 "$here/oracle.py" --tactl "$tactl" --litert "$TA_LITERT_DIR" \
	--web "$TA_TFLITE_WEB_DIR" --min-models 101 --min-mutations 325 "$models" "$root/tests/data"
