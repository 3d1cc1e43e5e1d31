#!/bin/sh
# A small program to show unotify at work (see contrib/policies/demo.policy).
export LC_ALL=C # no locale files: the trail shows the demo's own calls
echo "demo: reading an allowed file, /etc/os-release:"
head -n 2 /etc/os-release
echo "demo: trying /etc/shadow (the policy denies it with EACCES):"
if cat /etc/shadow >/dev/null; then
	echo "demo: UNEXPECTED: /etc/shadow was readable"
else
	echo "demo: denied, as the policy says"
fi
# The shell asks the kernel for its parent once, at start: the supervisor answered.
echo "demo: my parent process id, as the supervisor answered getppid: $(sh -c 'echo $PPID')"
echo "demo: done"
