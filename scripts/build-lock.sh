# Sourced by scripts/ensure-pulumi and scripts/ensure-language-host: one build per cache entry.
#
# take_build_lock <path> <what>: blocks until this process holds the lock named <path>, then
# returns; the lock goes when the process exits, however it exits. Two runs that both find the
# cache empty would otherwise run the same `go build` side by side (issue 42: two identical
# builds, 24 minutes for a first run); with the lock the second waits, then finds the first's
# build in the cache.
#
#   * flock (util-linux; every Linux here): the kernel drops the lock when the holder dies, so a
#     killed run never wedges a later one. The lock file itself stays; it is empty and harmless.
#     Children (`go build`) inherit the descriptor: a holder killed mid-build keeps the lock until
#     its orphaned `go build` ends, then the next run takes it and builds again.
#   * Without flock (macOS ships none): a symbolic link `<path>.pid` whose target is the
#     holder's pid, made with `ln -s` (atomic, like mkdir, and the pid comes with it). A waiter
#     that finds that pid gone takes the lock over, so a killed holder does not wedge later runs
#     either. GUARDRAILS_BUILD_LOCK=link forces this way (the test runs both).
#
# Env: GUARDRAILS_BUILD_LOCK=flock|link (default: flock when on PATH).

take_build_lock() {
  local lock=$1 what=$2 way=${GUARDRAILS_BUILD_LOCK:-}
  [ -n "$way" ] || { command -v flock >/dev/null && way=flock || way=link; }
  mkdir -p "$(dirname "$lock")"
  case "$way" in
    flock)
      # Never through a link (one planted there would have `>` empty the file it points at), and
      # opened to append, which changes nothing even if one is planted after the test.
      [ ! -L "$lock" ] || die "the build lock $lock is a symbolic link; remove it (nothing here makes one)"
      exec 9>>"$lock"
      if ! flock -n 9; then
        say "waiting for another run building $what (lock $lock)"
        flock 9
      fi
      ;;
    link)
      local said="" holder
      # `ln -s` is atomic and fails when the name exists, and the link carries the holder's
      # pid in the same step, so there is no moment with a lock and no owner.
      until ln -s "$$" "$lock.pid" 2>/dev/null; do
        holder=$(readlink "$lock.pid" 2>/dev/null || true)
        if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
          # The holder is gone without unlocking (killed): take over. Rename first, then check
          # that what was renamed is the dead holder's: a waiter that read the pid just before
          # another took the lock over must not remove the new holder's lock.
          if mv "$lock.pid" "$lock.stale.$$" 2>/dev/null; then
            [ "$(readlink "$lock.stale.$$" 2>/dev/null)" = "$holder" ] ||
              ln -s "$(readlink "$lock.stale.$$")" "$lock.pid" 2>/dev/null || true
            rm -f "$lock.stale.$$"
          fi
          continue
        fi
        [ -n "$said" ] || { say "waiting for another run building $what (lock $lock.pid, pid ${holder:-?})"; said=1; }
        sleep 1
      done
      _build_lock_link="$lock.pid"
      ;;
    *) die "GUARDRAILS_BUILD_LOCK must be flock or link (got '$way')" ;;
  esac
}

# Removes a link lock this process holds (flock needs nothing: the descriptor closes at exit).
# Call it from the script's EXIT trap.
release_build_lock() {
  [ -z "${_build_lock_link:-}" ] || rm -f "$_build_lock_link"
}
