# The TFLite runtime the oracle runs (tests/tflite-oracle/): the npm package
# @litertjs/core (LiteRT, TFLite's runtime built to WebAssembly) at this
# exact version, installed by tests/deps.sh into
# $TA_CACHE/litertjs-core-$TA_LITERT_VERSION (npm install --prefix). Sourced
# by tests/deps.sh and tests/tflite-oracle/oracle.sh.
TA_LITERT_VERSION=2.5.3
TA_LITERT_DIR=${TA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tensorarena}/litertjs-core-$TA_LITERT_VERSION
