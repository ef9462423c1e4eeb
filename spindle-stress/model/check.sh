#!/usr/bin/env bash
# Model-checks the Spindle Promela models (deque.pml, park.pml, async_park.pml, watch_role.pml,
# blocked_get.pml) with spin. watch_role.pml models the single watcher role and its hand-over
# (the async runtime's, and with -DGIVE_UP the work-sharing pool's).
# async_park.pml -DSELECTOR models the async runtime whose idle workers drive I/O and timers
# (-DTWO_DRIVERS: two drivers, and busy workers' pollNow sweeps).
# park.pml models the pools' one idle protocol, IdleCoordinator (spindle-core), as the
# work-stealing pool uses it and (-DSHARING) as the shared-queue pools do.
# blocked_get.pml models the async runtime's workers blocked in a get that help
# (AsyncWorker's "Blocking gets": the blockedInGet and running counts, helpWhileBlocked,
# cancelAbandoned).
#
#   check.sh [--mutants] [WORKDIR]
#
# Without an option (what `mvn verify` runs): runs every check below and exits non-zero unless
# each one reports "errors: 0" over a complete search.
# --mutants: runs the deliberately broken variants (the MUTANT_* macros described in the
# models) and exits non-zero unless spin finds an error in every one of them, which shows that
# the checks can fail.
# The spare-worker lost wake-up that these models found is
# covered both ways: the -DSPARE_RETIRES configurations pass, and the old re-check rule is one
# of the mutants (the fix is in IdleCoordinator.prepareToPark). So is the stall of a driver left
# free with every worker asleep (the fix is DrivingParker's slot hand-over): async-selector-2d-io
# passes, and the code before the fix is a mutant; and the lost wake-up of a sleeper handed a slot
# whose LockSupport unpark coalesced with the idle coordinator's (the fix is the permit check at
# the top of DrivingParker.sleep's loop) is a mutant too.
#
# Everything spin and the C compiler write goes to WORKDIR (default: ../target/spin), one
# directory per check; a counterexample can be replayed there with the command printed on
# failure.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=verify
case "${1:-}" in
    --mutants) mode=mutants; shift ;;
    -*) echo "usage: check.sh [--mutants] [WORKDIR]" >&2; exit 2 ;;
esac
work=${1:-"$here/../target/spin"}

if ! command -v spin >/dev/null 2>&1; then
    echo "check.sh: ERROR: the model checker 'spin' is not on PATH." >&2
    echo "check.sh: install it with:  apt-get install spin" >&2
    echo "check.sh: (the project's './spindle test' wrapper installs it), or skip this step" >&2
    echo "check.sh: with -Dspin.skip." >&2
    exit 2
fi
if ! command -v gcc >/dev/null 2>&1; then
    echo "check.sh: ERROR: gcc is not on PATH; spin's verifiers are C programs (apt-get install gcc)." >&2
    exit 2
fi
mkdir -p "$work" || exit 2

failed=0
total_start=$SECONDS

# Checks run side by side, as many at once as the machine has cores (SPIN_JOBS overrides; each
# pan may use up to its MEMLIM of 3 GiB): one check is one single-threaded pan, so on 2 cores
# they took twice as long one after another. Each check's report goes to WORKDIR/NAME.result and
# is printed, in the order below, once all have ended.
jobs_max=${SPIN_JOBS:-$(nproc 2>/dev/null || echo 1)}
order=()

# check NAME MODEL EXPECT(pass|fail) SPIN_DEFINES CC_DEFINES PAN_ARGS: starts the check in the
# background once fewer than jobs_max are running
check() {
    while (( $(jobs -rp | wc -l) >= jobs_max )); do
        wait -n
    done
    order+=("$1")
    run_check "$@" >"$work/$1.result" 2>&1 &
}

# run_check NAME MODEL EXPECT SPIN_DEFINES CC_DEFINES PAN_ARGS: one check, reporting "ok ..." or
# "FAIL ..." lines on stdout. It runs in a background subshell, so it sets no variable of this
# script: every way it can fail prints a line starting with FAIL, which the loop at the end reads.
run_check() {
    local name=$1 model=$2 expect=$3 sdefs=$4 cdefs=$5 pargs=$6
    local dir="$work/$name" start=$SECONDS
    rm -rf "$dir" && mkdir -p "$dir" && cp "$here/$model" "$dir/" || { echo "FAIL $name: cannot prepare $dir"; return; }
    # shellcheck disable=SC2086  # the defines are word lists on purpose
    if ! (cd "$dir" && spin $sdefs -a "$model" >spin.log 2>&1); then
        echo "FAIL $name: spin -a $sdefs $model failed:"; cat "$dir/spin.log"; return
    fi
    # shellcheck disable=SC2086
    if ! (cd "$dir" && gcc -O2 $cdefs -o pan pan.c >gcc.log 2>&1); then
        echo "FAIL $name: gcc $cdefs pan.c failed:"; cat "$dir/gcc.log"; return
    fi
    # At a lower priority: `./spindle test` builds two modules at a time, and a test of another
    # module that needs the CPU (a cluster's heartbeats, a bounded wait) should get it before a
    # verifier that can always use more. Alone on the machine, pan loses nothing by it.
    # shellcheck disable=SC2086
    (cd "$dir" && nice -n 10 ./pan $pargs >pan.out 2>&1)    # pan's exit status says nothing; read its output
    local errors states secs=$((SECONDS - start))
    errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$dir/pan.out" | tail -n 1)
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$dir/pan.out" | tail -n 1)
    local incomplete=""
    if grep -qE 'reached -DMEMLIM bound|max search depth too small|Search not completed|out of memory' "$dir/pan.out"; then
        incomplete=" (search INCOMPLETE)"
    fi
    local what="$name: spin $sdefs -a $model; gcc $cdefs; ./pan $pargs"
    if [[ -z "$errors" ]]; then
        echo "FAIL $what: no 'errors:' line in the output:"; tail -n 30 "$dir/pan.out"; return
    fi
    if [[ "$expect" == pass ]]; then
        if [[ "$errors" == 0 && -z "$incomplete" ]]; then
            echo "ok   $what -> errors: 0, ${states:-?} states, ${secs}s"
        else
            [[ "$errors" != 0 ]] && incomplete=""   # pan stops at the first error
            echo "FAIL $what -> errors: $errors$incomplete, ${secs}s"
            grep -E 'assertion violated|acceptance cycle|invalid end state|MEMLIM|depth too small' "$dir/pan.out" | head -n 5
            echo "     replay the counterexample: (cd $dir && spin -t -p -g -l $sdefs $model)"
        fi
    else
        if [[ "$errors" != 0 ]]; then
            echo "ok   $what -> caught: $(grep -oE 'assertion violated [^ ]*|acceptance cycle' "$dir/pan.out" | head -n 1), ${secs}s"
        else
            echo "FAIL $what -> the mutant was NOT caught (errors: 0$incomplete)"
        fi
    fi
}

if [[ $mode == verify ]]; then
    # Every safety check (-DNOCLAIM: no never claim, no -a) is compiled with -DSAFETY too: pan
    # then leaves out the bookkeeping of a cycle search it never makes. The search is the same
    # (the same states stored and matched, the same transitions and depth: watch-role-give-up-2w
    # 12,748,102 stored, 10,671,827 matched either way), on a few per cent less CPU
    # (watch-role-2w: 1.21 s against 1.27, the fastest of 7 runs each) and 13 % less
    # memory where the states are collapsed (-DCOLLAPSE; 768 MB against 670 MB).
    # The deque: owner push/pop, two thieves (steal, stealBatch), 4 tasks, ring 2 -> 4, each
    # ring renewed once at a fresh read of the owner's choosing or never (-DRENEW: the runs
    # without a renewal are explored too, so it covers the model without it). Safety.
    # -DCOLLAPSE is needed here: without it deque-renew reached MEMLIM after 21 of its 30
    # million states (an incomplete search).
    check deque-renew      deque.pml pass "-DNTASK=4 -DRENEW" "-DSAFETY -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    check deque-renew-lag4 deque.pml pass "-DNTASK=4 -DLAG=4 -DRENEW" "-DSAFETY -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    # The park/wake protocol. Safety (no task runs twice, no deadlock outside a park) ...
    check park-safety      park.pml  pass "-DNW=2 -DNT=2 -DNSUB=2" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # ... and liveness: every submitted task is eventually run, under weak fairness.
    check park-live-2w-1s  park.pml  pass "-DNW=2 -DNT=2 -DNSUB=1" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check park-live-2w-2s  park.pml  pass "-DNW=2 -DNT=2 -DNSUB=2" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check park-live-3w-1s  park.pml  pass "-DNW=3 -DNT=2 -DNSUB=1" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # ... and with the last worker a spare that retires instead of parking, as Worker.park() lets it
    check park-spare-2w-1s park.pml  pass "-DNW=2 -DNT=1 -DNSUB=1 -DSPARE_RETIRES" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check park-spare-2w-2s park.pml  pass "-DNW=2 -DNT=2 -DNSUB=2 -DSPARE_RETIRES" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # ... and the same coordinator as the shared-queue pools use it (WorkSharingPool, the actors'
    # default; PriorityPool): no stealing, no throttle, a re-check that cancels the park
    check park-sharing-safety  park.pml pass "-DSHARING -DNW=2 -DNT=2 -DNSUB=2" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check park-sharing-2w-1s   park.pml pass "-DSHARING -DNW=2 -DNT=2 -DNSUB=1" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check park-sharing-2w-2s   park.pml pass "-DSHARING -DNW=2 -DNT=2 -DNSUB=2" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check park-sharing-3w-1s   park.pml pass "-DSHARING -DNW=3 -DNT=2 -DNSUB=1" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check park-watch-safety    park.pml pass "-DWATCH -DNW=2 -DNT=2 -DNSUB=2" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check park-watch-2w-1s     park.pml pass "-DWATCH -DNW=2 -DNT=2 -DNSUB=1" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check park-sharing-watch-2w-1s park.pml pass "-DSHARING -DWATCH -DNW=2 -DNT=2 -DNSUB=1" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # The async runtime's parking protocol (spindle-async). Safety and the rest assertion (no
    # lost wake-up that leaves every worker parked), from start-up: work-stealing, hybrid ...
    check async-safe-2w        async_park.pml pass "-DNW=2" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-safe-2w-hybrid async_park.pml pass "-DNW=2 -DHYBRID" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # ... and with shutdown() racing with everything
    check async-safe-2w-close  async_park.pml pass "-DNW=2 -DCLOSE -DINSIDE_WAKE" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # ... and HYBRID's wake-up from inside a poll (deliverToOwner adopts a cell whose last poller
    # is parked, and the first cell in the waker's own empty wake channel wakes nobody)
    check async-safe-2w-hybrid-inside async_park.pml pass "-DNW=2 -DHYBRID -DINSIDE_WAKE" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-safe-3w-hybrid-inside async_park.pml pass "-DNW=3 -DHYBRID -DSTART_PARKED -DINSIDE_WAKE" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-live-2w-hybrid-inside async_park.pml pass "-DNW=2 -DHYBRID -DINSIDE_WAKE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # 3 workers (two searchers at once), started parked to bound the state space (the plain
    # 3-worker configuration is checked by async-live-3w below, whose search checks the
    # assertions too)
    check async-safe-3w-inside async_park.pml pass "-DNW=3 -DSTART_PARKED -DINSIDE_WAKE" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-safe-3w-close  async_park.pml pass "-DNW=3 -DSTART_PARKED -DNOYIELD -DINSIDE_WAKE -DCLOSE" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # Liveness under weak fairness: every task is polled to the end / every worker exits.
    check async-live-2w-inside async_park.pml pass "-DNW=2 -DINSIDE_WAKE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check async-live-2w        async_park.pml pass "-DNW=2 -DSTART_PARKED" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check async-live-2w-hybrid async_park.pml pass "-DNW=2 -DSTART_PARKED -DHYBRID" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check async-live-2w-close  async_park.pml pass "-DNW=2 -DSTART_PARKED -DCLOSE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check async-live-3w        async_park.pml pass "-DNW=3 -DSTART_PARKED -DNOYIELD" "-DNFAIR=4 -DMEMLIM=3072" "-a -f -m1000000"
    # A parked worker that watches busy peers and leaves the stack by itself to take their work
    # (-DWATCH: LoneTaskWatch): safety from start-up, with hybrid (its hot queue spilled) and with a
    # close; liveness, with hybrid too.
    check async-watch-safe-2w        async_park.pml pass "-DNW=2 -DWATCH" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-watch-safe-2w-hybrid async_park.pml pass "-DNW=2 -DWATCH -DHYBRID" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-watch-safe-2w-close  async_park.pml pass "-DNW=2 -DWATCH -DCLOSE -DINSIDE_WAKE" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-watch-safe-3w-inside async_park.pml pass "-DNW=3 -DWATCH -DNO_SINK -DSTART_PARKED -DINSIDE_WAKE" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    check async-watch-live-2w-inside async_park.pml pass "-DNW=2 -DWATCH -DINSIDE_WAKE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check async-watch-live-2w-hybrid async_park.pml pass "-DNW=2 -DWATCH -DHYBRID -DINSIDE_WAKE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check async-watch-live-2w-close  async_park.pml pass "-DNW=2 -DWATCH -DSTART_PARKED -DCLOSE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # The single watcher role (watch_role.pml: AsyncWorker.park/leavePark): at rest, a parked
    # worker exists only if a parked worker watches; 2 workers with more wake-ups, and 3.
    # The 2-worker checks store their states uncompressed (no -DCOLLAPSE): the same search (the
    # same states stored and matched) on 15-20 % less CPU (watch-role-active-2w 32.8 s against
    # 39.8 on a loaded machine, 16.8 against 21.4 on a quiet one; give-up 15.3 against 18.9) for
    # more memory, at most 1.5 GB (watch-role-active-2w; give-up 960 MB, 2w 210 MB), half of
    # MEMLIM, so two such pans at once fit too. The 3-worker one keeps it (not measured without).
    check watch-role-2w watch_role.pml pass "-DNW=2 -DNWAKE=4 -DNRESUME=2" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check watch-role-3w watch_role.pml pass "-DNW=3" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    # The work-sharing pool's variant (-DGIVE_UP: a WatcherRole that gives up): the role is
    # given up while every worker is parked; at rest, a worker running on with another parked
    # has a parked watcher. (3 workers: 51 million states, 80 s and 3 GB; checked by hand.)
    check watch-role-give-up-2w watch_role.pml pass "-DNW=2 -DGIVE_UP" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # The work-stealing pool's variant (-DACTIVE_ONLY: a slot fill wakes nobody only while the
    # role is held, which is taken and handed on only while a peer is awake): at rest, a worker
    # that blocked after a silent fill with another parked has a parked watcher. (3 workers: 50
    # million states, 83 s and 3 GB; checked by hand. 2 workers: 21 million states, 29 s.)
    check watch-role-active-2w watch_role.pml pass "-DNW=2 -DACTIVE_ONLY" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # Workers that drive I/O and timers (-DSELECTOR: DrivingParker, a driven Reactor): a worker
    # inside select woken from outside, by I/O readiness after a registration, by a timer; with
    # a close; liveness with I/O. COLLAPSE: the sticky permits make these the largest searches.
    check async-selector-2w       async_park.pml pass "-DNW=2 -DSELECTOR -DSTART_PARKED -DNOYIELD" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    check async-selector-2w-io    async_park.pml pass "-DNW=2 -DSELECTOR -DIO_WAKE -DNOYIELD" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    check async-selector-2w-timer async_park.pml pass "-DNW=2 -DSELECTOR -DTIMER -DNOYIELD" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    check async-selector-2w-inside-close async_park.pml pass "-DNW=2 -DSELECTOR -DSTART_PARKED -DNOYIELD -DINSIDE_WAKE -DCLOSE" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    check async-selector-live-io  async_park.pml pass "-DNW=2 -DSELECTOR -DIO_WAKE -DSTART_PARKED -DNOYIELD" "-DNFAIR=3 -DCOLLAPSE -DMEMLIM=3072" "-a -f -m1000000"
    # Two drivers (-DTWO_DRIVERS), T0's channel on driver 1, and busy workers' pollNow sweeps that
    # a sleeper's look at the slots interleaves with, each handing its freed slot to one sleeper;
    # started parked, 2 sweeps in all (the header says why 2, and why not 3 workers: more than 400
    # million states).
    check async-selector-2d-io    async_park.pml pass "-DNW=2 -DSELECTOR -DIO_WAKE -DTWO_DRIVERS -DNPOLLNOW=2 -DSTART_PARKED -DNOYIELD" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    # Workers blocked in a get that help (blocked_get.pml: AsyncWorker.helpWhileBlocked,
    # cancelAbandoned, JoinHandle.await): blockedInGet never counts a worker running a poll, the
    # close's "every worker blocked" check never passes spuriously (safety); every task is done
    # although every worker blocks, and after a close every worker exits (liveness). With a get
    # inside a helped poll (-DNEST) and a helped runCell that throws (-DTHROW); 3 workers for
    # safety (its liveness, some 6 million states and half a minute, by hand; its close fills
    # MEMLIM).
    check blocked-get-safe-2w       blocked_get.pml pass "-DNW=2 -DNEST -DTHROW" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check blocked-get-safe-2w-close blocked_get.pml pass "-DNW=2 -DNEST -DTHROW -DCLOSE" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check blocked-get-safe-3w       blocked_get.pml pass "-DNW=3" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    check blocked-get-live-2w       blocked_get.pml pass "-DNW=2 -DNEST -DTHROW" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check blocked-get-live-2w-close blocked_get.pml pass "-DNW=2 -DNEST -DTHROW -DCLOSE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # ... and with a worker blocked in a promise's get (-DPROMISE: counted, never helping), the
    # promise completed by a task only a peer's help runs (or, after a close, from outside)
    check blocked-get-promise-safe-2w-close blocked_get.pml pass "-DNW=2 -DNEST -DTHROW -DCLOSE -DPROMISE" "-DSAFETY -DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check blocked-get-promise-safe-3w       blocked_get.pml pass "-DNW=3 -DPROMISE" "-DSAFETY -DNOCLAIM -DCOLLAPSE -DMEMLIM=3072" "-m1000000"
    check blocked-get-promise-live-2w       blocked_get.pml pass "-DNW=2 -DNEST -DTHROW -DPROMISE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check blocked-get-promise-live-2w-close blocked_get.pml pass "-DNW=2 -DNEST -DTHROW -DCLOSE -DPROMISE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
else
    for m in MUTANT_POP_NO_CAS MUTANT_THIEF_CLEARS MUTANT_CLEAR_TOO_FAR MUTANT_BATCH_NO_RECHECK; do
        check "deque-$m" deque.pml fail "-DNTASK=3 -D$m" "-DSAFETY -DMEMLIM=3072" "-m1000000"
    done
    # a push that trusts a view of top saying full: with a lag of 2, the ring of 2 is read
    # afresh at every second push anyway, so this one needs the lag of 4
    check deque-MUTANT_TRUST_FULL_VIEW deque.pml fail "-DNTASK=3 -DLAG=4 -DMUTANT_TRUST_FULL_VIEW" "-DSAFETY -DMEMLIM=3072" "-m1000000"
    # a renewal that leaves the oldest element out of the young ring
    check deque-MUTANT_RENEW_SKIPS_OLDEST deque.pml fail "-DNTASK=3 -DRENEW -DMUTANT_RENEW_SKIPS_OLDEST" "-DSAFETY -DMEMLIM=3072" "-m1000000"
    for m in MUTANT_NO_RECHECK MUTANT_NOTIFY_FIRST; do
        check "park-$m" park.pml fail "-DNW=2 -DNT=1 -DNSUB=1 -D$m" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
        check "park-sharing-$m" park.pml fail "-DSHARING -DNW=2 -DNT=1 -DNSUB=1 -D$m" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    done
    # the watchers' resumes must not hide a missing re-check
    check park-watch-MUTANT_NO_RECHECK park.pml fail "-DWATCH -DNW=2 -DNT=2 -DNSUB=1 -DMUTANT_NO_RECHECK" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check park-sharing-watch-MUTANT_NO_RECHECK park.pml fail "-DSHARING -DWATCH -DNW=2 -DNT=2 -DNSUB=1 -DMUTANT_NO_RECHECK" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # the re-check rule before the fix: loses a wake-up when a spare retires
    check park-MUTANT_LAST_SEARCHER_ONLY park.pml fail "-DNW=2 -DNT=1 -DNSUB=1 -DSPARE_RETIRES -DMUTANT_LAST_SEARCHER_ONLY" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # the watcher role: never handed over (the code before the fix), handed over only by a
    # leaving watcher (3 workers), or nudged before the flag is freed
    for m in MUTANT_NO_NUDGE MUTANT_WATCHER_NUDGES_ONLY MUTANT_NUDGE_BEFORE_RELEASE; do
        check "watch-role-$m" watch_role.pml fail "-DNW=3 -D$m" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    done
    # the pool's variant: a watcher that gives the role up without looking again, or a worker
    # that cancels its own park without the nudge check
    for m in MUTANT_NO_SECOND_LOOK MUTANT_CANCEL_NO_LEAVE; do
        check "watch-role-give-up-$m" watch_role.pml fail "-DNW=2 -DGIVE_UP -D$m" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    done
    # the work-stealing pool's variant: no hand-over at all (3 workers), or no second look
    check watch-role-active-MUTANT_NO_NUDGE watch_role.pml fail "-DNW=3 -DACTIVE_ONLY -DMUTANT_NO_NUDGE" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check watch-role-active-MUTANT_NO_SECOND_LOOK watch_role.pml fail "-DNW=2 -DACTIVE_ONLY -DMUTANT_NO_SECOND_LOOK" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # the async runtime: each broken step leaves a task queued with every worker parked
    for m in MUTANT_NO_RECHECK MUTANT_WAKE_NO_NOTIFY MUTANT_WAKE_NOTIFY_FIRST MUTANT_RECHECK_NO_WAKE_CHANNELS MUTANT_IDLE_DESPITE_WAKE; do
        check "async-$m" async_park.pml fail "-DNW=2 -D$m" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    done
    # ... or a worker asleep after shutdown
    check async-MUTANT_PARK_AFTER_CLOSE async_park.pml fail "-DNW=2 -DCLOSE -DMUTANT_PARK_AFTER_CLOSE" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # the selector-driving worker: the driver inside select is never woken (unpark without
    # selector.wakeup), selects without re-reading its permit, misses a registration or an
    # earlier timer
    check async-MUTANT_NO_SELECTOR_WAKEUP async_park.pml fail "-DNW=2 -DSELECTOR -DSTART_PARKED -DNOYIELD -DMUTANT_NO_SELECTOR_WAKEUP" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-MUTANT_NO_PERMIT_RECHECK  async_park.pml fail "-DNW=2 -DSELECTOR -DSTART_PARKED -DNOYIELD -DMUTANT_NO_PERMIT_RECHECK" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-MUTANT_NO_REGISTER_WAKEUP async_park.pml fail "-DNW=2 -DSELECTOR -DIO_WAKE -DNOYIELD -DMUTANT_NO_REGISTER_WAKEUP" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-MUTANT_NO_TIMER_WAKEUP    async_park.pml fail "-DNW=2 -DSELECTOR -DTIMER -DNOYIELD -DMUTANT_NO_TIMER_WAKEUP" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # two drivers: a driver left free, with nobody in it and every worker asleep: the code before
    # the slot hand-over (one pollNow sweep is enough), and the hand-over without its releaser's
    # half, pollNow's release handing over to nobody (two are needed)
    check async-MUTANT_NO_SLOT_HANDOVER    async_park.pml fail "-DNW=2 -DSELECTOR -DIO_WAKE -DTWO_DRIVERS -DNPOLLNOW=1 -DSTART_PARKED -DNOYIELD -DMUTANT_NO_SLOT_HANDOVER" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    check async-MUTANT_NO_RELEASE_HANDOVER async_park.pml fail "-DNW=2 -DSELECTOR -DIO_WAKE -DTWO_DRIVERS -DNPOLLNOW=2 -DSTART_PARKED -DNOYIELD -DMUTANT_NO_RELEASE_HANDOVER" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # ... and a claimed sleeper that looks again without checking its permit: the releaser's and
    # the coordinator's unparks coalesce, it parks again and sleeps through the coordinator's
    # wake-up (the rest assertion: a worker off the stack, searching stuck at 1). It needs 3
    # workers (with 2 it cannot happen: the header says why); a plain search of 3 workers fills
    # MEMLIM before it gets there, so pan tries each process's moves in reverse order (-DT_REVERSE:
    # 1.8 million states, a few seconds)
    check async-MUTANT_NO_PERMIT_RECHECK_ON_LOOP async_park.pml fail "-DNW=3 -DSELECTOR -DIO_WAKE -DTWO_DRIVERS -DNPOLLNOW=1 -DSTART_PARKED -DNOYIELD -DMUTANT_NO_PERMIT_RECHECK_ON_LOOP" "-DNOCLAIM -DCOLLAPSE -DMEMLIM=3072 -DT_REVERSE" "-m1000000"
    # the LTL claims fail on their own too (no rest assertion): acceptance cycles
    check async-MUTANT_NO_RECHECK-ltl async_park.pml fail "-DNW=2 -DNO_QUIET -DMUTANT_NO_RECHECK" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check async-MUTANT_PARK_AFTER_CLOSE-ltl async_park.pml fail "-DNW=2 -DNO_QUIET -DCLOSE -DMUTANT_PARK_AFTER_CLOSE" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check async-MUTANT_NO_SELECTOR_WAKEUP-ltl async_park.pml fail "-DNW=2 -DNO_QUIET -DSELECTOR -DSTART_PARKED -DNOYIELD -DMUTANT_NO_SELECTOR_WAKEUP" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # blocked workers that help: the count not decremented around a helped poll, or incremented
    # again before it returns (a worker counted blocked runs a poll; with a close, the "every
    # worker blocked" check passes while one runs); the two reads of that check swapped
    for m in MUTANT_NO_DECREMENT MUTANT_INCREMENT_EARLY MUTANT_CLAIM_BY_REFERENCE; do
        check "blocked-get-$m" blocked_get.pml fail "-DNW=2 -D$m" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    done
    check blocked-get-MUTANT_BLOCKED_FIRST blocked_get.pml fail "-DNW=2 -DCLOSE -DMUTANT_BLOCKED_FIRST" "-DNOCLAIM -DMEMLIM=3072" "-m1000000"
    # ... the increment not in a finally (a throwing helped runCell leaves the count one short:
    # after a close nobody sees every worker blocked), or a blocked worker that parks until its
    # task is done instead of looking again (a close leaves it waiting): acceptance cycles
    check blocked-get-MUTANT_NO_FINALLY blocked_get.pml fail "-DNW=2 -DCLOSE -DTHROW -DMUTANT_NO_FINALLY" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    check blocked-get-MUTANT_NO_RECHECK blocked_get.pml fail "-DNW=2 -DCLOSE -DMUTANT_NO_RECHECK" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
    # a worker waiting for a promise not counted as blocked (the code before the fix): the peer blocked
    # in the get of the task that completes it never helps, both wait for good
    check blocked-get-MUTANT_PROMISE_UNCOUNTED blocked_get.pml fail "-DNW=2 -DPROMISE -DMUTANT_PROMISE_UNCOUNTED" "-DNFAIR=3 -DMEMLIM=3072" "-a -f -m1000000"
fi

wait
for name in "${order[@]}"; do
    cat "$work/$name.result"
    if grep -q '^FAIL' "$work/$name.result"; then
        failed=1
    fi
done
echo "spin checks took $((SECONDS - total_start))s in total ($jobs_max at a time)"
if [[ $failed != 0 ]]; then
    echo "check.sh: MODEL CHECK FAILED" >&2
    exit 1
fi
