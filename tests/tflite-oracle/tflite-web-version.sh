# The oracle's second TFLite runtime (tests/tflite-oracle/): the npm
# package @tensorflow/tfjs-tflite (TFLite's interpreter built to
# WebAssembly; tflite-web-run.cjs loads its module directly) at this exact
# version, for the models LiteRT does not load. Installed by tests/deps.sh
# into $TA_CACHE/tfjs-tflite-$TA_TFLITE_WEB_VERSION (npm install --prefix).
# Sourced by tests/deps.sh and tests/tflite-oracle/oracle.sh.
TA_TFLITE_WEB_VERSION=0.0.1-alpha.10
TA_TFLITE_WEB_DIR=${TA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tensorarena}/tfjs-tflite-$TA_TFLITE_WEB_VERSION
