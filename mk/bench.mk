# The bench's targets (scripts/bench/*.sh; deb: scripts/build/deb.sh): included by the Makefile.
.PHONY: bench bench-host bench-compare bench-latency deb

bench: deps-core source
	@scripts/bench/bench.sh
bench-host:
	@scripts/bench/bench-host.sh $(or $(NAME),$(error NAME=base|patched|... names the running kernel)) $(DIR)
bench-compare:
	@scripts/bench/bench-compare.sh $(or $(A),$(error A=dir B=dir: two result folders)) $(or $(B),$(error B=dir)) $(OUT)
bench-latency: deps-core source
	@scripts/setup/apply.sh && scripts/bench/irq-restore-latency.sh $(OUT)
deb: deps-core source
	@scripts/build/deb.sh
