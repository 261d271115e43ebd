# What bench/serve and bench/limits share to measure serving pages (sourced, not run): wrk with a list of paths,
# `fanout serve` started and stopped, the paths of timeline pages, and nginx serving a built site. One home for the
# wrk invocation, so that both scripts measure the same way (docs/serve.md "Benchmark").
# The sourcing script sets F (the fanout binary), WORK (a scratch folder it deletes), DURATION and CONNECTIONS, and
# USERS for paths_of; it kills $SERVER and $NGINX on exit (stop_serve and stop_nginx clear them).
# Needs: wrk, nginx-light, curl, bc, python3 (installed when missing).
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
command -v nginx >/dev/null || apt-get install -y -qq nginx-light >/dev/null
command -v curl >/dev/null || apt-get install -y -qq curl >/dev/null
command -v bc >/dev/null || apt-get install -y -qq bc >/dev/null
SERVER=""
NGINX=""

now() { date +%s.%N; }

# wrk's Lua script: each request a random path from the list given after `--`.
cat > "$WORK/paths.lua" <<'LUA'
local paths = {}
function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end
function request()
  return wrk.format("GET", paths[math.random(#paths)])
end
LUA

# run_wrk URL PATHS: "req/s p50_ms p99_ms non2xx"
run_wrk() {
  local out; out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/paths.lua" "$1" -- "$2")
  local rps p50 p99 bad
  rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out"); p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  bad=$(awk '/Non-2xx/ {print $5}' <<<"$out")
  echo "$rps $(ms "$p50") $(ms "$p99") ${bad:-0}"
}
# wrk's latencies (850.00us, 12.34ms, 1.02s) in milliseconds.
ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }

# start_serve EXPORT [SERVE OPTIONS…]: starts serve on a free port; sets SERVER, URL and FIRST (seconds from start
# to a first timeline page, found through /u/<uid> of the export's first follower).
start_serve() {
  local export=$1 uid start; shift
  uid=$(set +o pipefail; head -c 2000000 "$export" | grep -o '{"[A-Za-z0-9]\{28\}":true' | head -1 | cut -c3-30)
  start=$(now)
  # Emptied here, not only by the redirection below: that happens in the child, maybe after the first look.
  : > "$WORK/url"
  "$F" serve "$export" --port 0 "$@" > "$WORK/url" 2> "$WORK/serve.log" &
  SERVER=$!
  until [ -s "$WORK/url" ]; do kill -0 "$SERVER" || { cat "$WORK/serve.log"; exit 1; }; sleep 0.05; done
  URL=$(head -1 "$WORK/url")
  until curl -sf -o /dev/null -L "${URL}u/$uid"; do sleep 0.05; done
  FIRST=$(echo "$(now) - $start" | bc)
}
stop_serve() { kill -TERM "$SERVER"; wait "$SERVER" || { echo "serve exited with $?"; exit 1; }; SERVER=""; }

# paths_of EXPORT FILE: the timeline paths of USERS random users of the export (followed users, found at the start
# of the file), as the running serve's /u/<uid> redirects name them.
paths_of() {
  head -c 50000000 "$1" | grep -o '{"[A-Za-z0-9]\{28\}":true' | cut -c3-30 | sort -u | shuf -n "$USERS" --random-source=<(yes) \
    | while read -r uid; do curl -s -o /dev/null -w '%{redirect_url}\n' "${URL}u/$uid"; done \
    | sed "s|^${URL%/}||" | grep '^/users/' > "$2"
}

# start_nginx ROOT PATHS: nginx (two workers, sendfile, no access log) serving the built site ROOT on a free port
# until stop_nginx; sets NGINX and NGINX_URL, and returns once the first of PATHS answers.
start_nginx() {
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat > "$WORK/nginx.conf" <<CONF
user root;
worker_processes 2;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  types { text/html html; }
  server { listen 127.0.0.1:$port; root $1; }
  client_body_temp_path $WORK/nginx-tmp; proxy_temp_path $WORK/nginx-tmp; fastcgi_temp_path $WORK/nginx-tmp;
  uwsgi_temp_path $WORK/nginx-tmp; scgi_temp_path $WORK/nginx-tmp;
}
CONF
  nginx -c "$WORK/nginx.conf" -e "$WORK/nginx-error.log" &
  NGINX=$!
  NGINX_URL="http://127.0.0.1:$port/"
  until curl -sf -o /dev/null "http://127.0.0.1:$port$(head -1 "$2")"; do sleep 0.05; done
}
stop_nginx() { kill "$NGINX"; wait "$NGINX" 2>/dev/null || true; NGINX=""; }

# Kills what is still running (a failed step), for the sourcing script's EXIT trap.
stop_servers() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null || true; fi
  if [ -n "$NGINX" ]; then kill "$NGINX" 2>/dev/null && wait "$NGINX" 2>/dev/null || true; fi
}
