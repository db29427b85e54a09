# The boot tests' targets: included by the Makefile.
.PHONY: boot

boot: apply
	@scripts/build.sh guest-le
	@scripts/boot.sh guest-le shell
