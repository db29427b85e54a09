# The harness: each target runs one script of scripts/JOB/ (setup, build, boot,
# bench, check, export: each folder's README.md says which). 'make help' lists them.
SHELL := /bin/bash
TARGET ?= ppc64le
BRANCH ?= dev
TARGETS := $(shell awk 'NF && $$1 !~ /^[[:punct:]]/ { print $$1 }' kernel/targets)

.DEFAULT_GOAL := help
.PHONY: help deps deps-core source apply export export-rcu post checkpatch sparse build check check-wide test test-full test-torture test-torture-rcu report

help:
	@echo "make help        this list"
	@echo "make deps        install the Debian packages the harness needs, LLVM 19 included (as root; skips what is there)"
	@echo "make source      fetch the pinned Linux base (kernel/base.env) into build/linux, tag 'base'"
	@echo "make apply       git am series/ then series-rcu/ onto the base: branch 'series' of build/linux ('series-preempt': series/ alone)"
	@echo "make export      write branch BRANCH (default: dev) of build/linux back into series/, To:/Cc: from get_maintainer.pl"
	@echo "make export-rcu  write branch 'rcu' (built on 'dev') of build/linux back into series-rcu/"
	@echo "make post        what would be mailed, as the sender (git config user.name/email), split as kernel/post says, checked, into build/post/ (sends nothing)"
	@echo "make checkpatch  checkpatch.pl --strict on every patch of series/ and series-rcu/"
	@echo "make sparse      sparse and W=1 on the objects the series touches: no new warning against base"
	@echo "make build       build vmlinux for TARGET=$(subst $() ,|,$(TARGETS)) (default: ppc64le) in build/out/TARGET"
	@echo "make bench       the user's kernel (Fedora ELN's kill() path: SELinux enforcing, audit): reference, rcu-only, base, patched (series/), rcu (+ series-rcu/) in QEMU, stress-ng --kill 1 per bogo-op, tables and plots in results/<revision>/bench-<time>/ (BENCH_PROFILE=minimal: the minimal kernels; all: both; EXTRA=mbox|dir [EXTRA_NAME=word] [EXTRA_ON=base|patched|rcu]: one more kernel)"
	@echo "make bench-host  NAME=base|patched: the bench's workloads on the running kernel (a POWER10 LPAR)"
	@echo "make bench-compare A=dir B=dir: the table and plot of two result folders"
	@echo "make bench-latency wakeup latency of a SCHED_FIFO task woken in a local_irq_restore() region, with and without series-rcu's last patch (-icount; OUT=table.md)"
	@echo "make deb         linux-image and linux-headers .deb of the patched kernel (CONFIG=file; default: bench config)"
	@echo "make check       checkpatch, sparse, builds of ppc64le, ppc64, ppc32, book3e, ppc64le-radix, KUnit (kunit.py) LE, BE, ppc32;"
	@echo "                 clang (LLVM 19) builds of ppc64le, ppc64, ppc64le-radix and a clang-built guest boot; sparse + W=1 on clang and radix"
	@echo "make test        the tests: deps, source, apply, checkpatch, ppc64le debug build (guest-le), sparse,"
	@echo "                 disasm, bpf header, boot tests (LE full and lazy, BE), KUnit at boot and on ppc32, a short rcutorture + locktorture, self-tests"
	@echo "make test-full   check + test + every prefix builds + the base booted + the replay bug on base + negative controls"
	@echo "make test-torture rcutorture, locktorture, kexec, kdump, NMI IPIs, KVM on the series and on the base (test-full guests)"
	@echo "make test-torture-rcu the same torture runs on the inline RCU readers, BE, the first series alone, the BE base"
	@echo "make test-distro the LPAR kit in a Debian sid ppc64el system under QEMU: image, Debian config + localmodconfig, make deb of base and both series, dpkg -i, boots, bench-host, bench-compare (docs/distro.md)"
	@echo "make check-wide  Debian's ppc64el config (build, disasm, boot), the robots' defconfigs, sparse + W=1 on each, randconfigs (3 seeds each, a check a seed); ONLY=name runs one check"
	@echo "                 RESUME=1 (any suite): run only the checks not yet passed on this revision, as its saved parts say (a run a session's end cut off)"
	@echo "make report      merge each suite's stamped parts in results/<revision>/ into a summary, and write the index results/README.md"
	@echo "make boot        boot the patched LE guest to a busybox shell (Ctrl-A X quits)"

# make deps: everything, LLVM 19 too; the other targets install what they need
# (make check's clang checks install LLVM 19 themselves).
deps:
	@scripts/setup/deps.sh clang
deps-core:
	@scripts/setup/deps.sh
source: deps-core
	@scripts/setup/source.sh
apply: source
	@scripts/setup/apply.sh
export: source
	@scripts/export/export.sh $(BRANCH)
export-rcu: source
	@FROM=dev SERIES=$(CURDIR)/series-rcu TO_SECTIONS='POWERPC|READ-COPY UPDATE' TO_LISTS='READ-COPY UPDATE' scripts/export/export.sh rcu
post: source
	@scripts/export/post.sh
checkpatch: source
	@scripts/check/checkpatch.sh
sparse: source
	@scripts/check/sparse.sh
build: source
	@scripts/build/build.sh $(TARGET)
check: deps-core source
	@scripts/check/test.sh check
test: deps-core source
	@scripts/check/test.sh test
test-full: deps-core source
	@scripts/check/test.sh full
test-torture: deps-core source
	@scripts/check/test.sh torture
test-torture-rcu: deps-core source
	@scripts/check/test.sh torture-rcu
check-wide: deps-core source
	@scripts/check/test.sh wide
test-distro: deps-core source
	@scripts/check/test.sh distro
report:
	@scripts/report/report.py

# Each mk/*.mk adds the targets of one area (boot tests, bench).
include mk/*.mk
