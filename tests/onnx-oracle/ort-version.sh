# The ONNX Runtime the oracle runs (tests/onnx-oracle/): the npm package
# onnxruntime-node at this exact version, its CPU provider, installed by
# tests/deps.sh into $TA_CACHE/onnxruntime-node-$TA_ORT_VERSION (npm
# install --prefix). Sourced by tests/deps.sh and tests/onnx-oracle/oracle.sh.
TA_ORT_VERSION=1.23.2
TA_ORT_DIR=${TA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tensorarena}/onnxruntime-node-$TA_ORT_VERSION
