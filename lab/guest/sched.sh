# shellcheck shell=sh
# The scheduler's knobs for the guest's scripts and bench/aba.sh (POSIX sh).
# Writes append and a feature's state is its last word in the file: so a
# plain file stands in for the kernel's in the tests.
SCHED_FEATURES=${SCHED_FEATURES:-/sys/kernel/debug/sched/features}

# feat NAME: NAME or NO_NAME; fails when the kernel has no such feature
feat() { tr ' ' '\n' <"$SCHED_FEATURES" | grep -E "^(NO_)?$1\$" | tail -n 1 | grep .; }

# the newidle features (NI_*): feats on one line, feat_lines one a line
feats() { feat_lines | tr '\n' ' ' | sed 's/ $//'; }
feat_lines() {
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(NO_)?NI_/) {
			n = $i; sub(/^NO_/, "", n); if (!(n in v)) o[++k] = n; v[n] = $i } }
		END { for (i = 1; i <= k; i++) print v[o[i]] }' "$SCHED_FEATURES"
}

# set_feat NAME|NO_NAME: fails when it did not take effect
set_feat() {
	echo "$1" >>"$SCHED_FEATURES" 2>/dev/null || return 1
	[ "$(feat "${1#NO_}")" = "$1" ]
}

# partition CPUS|off: CPUS as a root cpuset partition of their own (the other
# CPUs keep their domains), and removed again
partition() {
	pt_cg=/sys/fs/cgroup/lab-partition
	if [ "$1" = off ]; then
		echo member >$pt_cg/cpuset.cpus.partition
		rmdir $pt_cg
		return
	fi
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control && mkdir $pt_cg || return 1
	echo "$1" >$pt_cg/cpuset.cpus && echo root >$pt_cg/cpuset.cpus.partition && return 0
	# half made: nothing left behind
	rmdir $pt_cg
	return 1
}

# rebuild_domains CPUS: a partition of CPUS to root and back to member (the
# cgroup removed whatever happened)
rebuild_domains() {
	rd_cg=/sys/fs/cgroup
	rd_rc=1
	if echo +cpuset >$rd_cg/cgroup.subtree_control 2>/dev/null && mkdir -p $rd_cg/lab-rebuild; then
		echo "$1" >$rd_cg/lab-rebuild/cpuset.cpus 2>/dev/null &&
			echo root >$rd_cg/lab-rebuild/cpuset.cpus.partition 2>/dev/null &&
			echo member >$rd_cg/lab-rebuild/cpuset.cpus.partition 2>/dev/null && rd_rc=0
		rmdir $rd_cg/lab-rebuild 2>/dev/null
	fi
	return $rd_rc
}
