# The boot tests' targets: included by the Makefile.
.PHONY: boot boot-build

# make boot's kernel, guest-le, built after make apply (not in make help).
boot-build: apply
	@scripts/build/build.sh guest-le
boot: boot-build
	@scripts/boot/boot.sh guest-le shell
