#!/bin/sh
# install.sh of the release archive (make dist puts it at the archive's top, beside bin/ and
# share/): installs or uninstalls the git credential helpers into PREFIX (~/.local unless
# PREFIX=DIR or --prefix DIR). POSIX sh: it runs on any glibc distribution, before
# anything of ours does. `install.sh --help` says how.
set -eu

# $1 as one word for sh, bash, zsh and fish: in single quotes, each ' as '\''.
shell_quoted() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# Written by scripts/make-dist from the binaries it packs: the version, and the oldest
# glibc the dynamically linked ones need (the highest GLIBC_x.y symbol version they
# reference; "none" when every one is static).
version=unknown
required_glibc=unknown

program=install.sh
# The record of what we installed, under PREFIX: what is ours to replace and to remove.
record_dir=share/git-credential-helpers
record=$record_dir/installed

say() { printf '%s\n' "$*"; }
# One line on stderr, as every program of the suite fails: `PROGRAM: cause. Fix: fix`.
refuse() { printf '%s: %s. Fix: %s\n' "$program" "$1" "$2" >&2; exit 1; }

usage() {
	needs="x86_64 Linux"
	[ "$required_glibc" = none ] || needs="$needs with glibc $required_glibc or newer"
	cat <<EOF
usage: ./install.sh [--prefix DIR] [--uninstall]

Installs git-credential-helpers $version into DIR (default: \$PREFIX, else ~/.local):
commands in DIR/bin, man pages in DIR/share/man/man1, completions for bash, zsh
and fish under DIR/share. It records what it installed in DIR/$record,
replaces only what it installed itself, and --uninstall removes exactly that.
Needs $needs.
EOF
}

action=install
prefix=${PREFIX:-}
while [ $# -gt 0 ]; do
	case $1 in
	--prefix) [ $# -ge 2 ] || refuse "--prefix needs a directory" "--prefix DIR"; prefix=$2; shift 2 ;;
	--prefix=*) prefix=${1#--prefix=}; shift ;;
	--uninstall) action=uninstall; shift ;;
	-h | --help) usage; exit 0 ;;
	*) refuse "unknown argument '$1'" "./install.sh --help says what it takes" ;;
	esac
done
if [ -z "$prefix" ]; then
	[ -n "${HOME:-}" ] || refuse "HOME is not set, so ~/.local is nowhere" "name the directory: --prefix DIR"
	prefix=$HOME/.local
fi
case $prefix in
/*) ;;
*) refuse "the prefix '$prefix' is not an absolute path" "--prefix \"\$PWD/$prefix\", or another absolute path" ;;
esac
case /$prefix/ in
*/./* | */../*) refuse "the prefix '$prefix' has . or .. in it" "name it without them" ;;
esac
case $prefix in
*'
'*) refuse "the prefix has a line break in it" "choose another directory" ;;
esac
prefix=${prefix%/}
[ -n "$prefix" ] || refuse "the prefix / would put the commands in /bin" "--prefix /usr/local"
uid=$(id -u)
# Lists below are one path a line; a path may hold spaces, and no pattern is expanded.
IFS='
'
set -f

# Refuses the directory $1 (where we write, or remove from) unless only we or root can change it, as
# ssh's StrictModes and the helpers' own stores judge it: every directory from / down
# owned by us or root and writable by no one else (root's sticky ones, like /tmp, aside),
# a symbolic link only when it is ours or root's, and then its target judged the same way.
# Directories missing on the way end the walk, or when $creating is set are created (0755)
# and remembered in $created.
creating=
created=
trusted_path() {
	walked=
	rest=${1#/}
	trusted_directory /
	while [ -n "$rest" ]; do
		part=${rest%%/*}
		case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
		[ -n "$part" ] || continue
		walked=$walked/$part
		if [ -L "$walked" ]; then
			[ -n "$(find "$walked" -prune \( -user "$uid" -o -user 0 \) -print)" ] ||
				refuse "$walked is a symbolic link made by another user, who can point it elsewhere" \
					"choose a prefix whose directories only you and root own"
			real=$(cd -P "$walked" 2>/dev/null && pwd) ||
				refuse "$walked is a symbolic link to nowhere" "remove it, or choose another prefix"
			saved_rest=$rest
			trusted_path "$real"
			rest=$saved_rest
			walked=$real
		elif [ -d "$walked" ]; then
			trusted_directory "$walked"
		elif [ -e "$walked" ]; then
			refuse "$walked is not a directory" "move it aside, or choose another prefix"
		elif [ -n "$creating" ]; then
			mkdir -m 755 "$walked" 2>/dev/null || refuse "cannot create $walked" "check the permissions of the directory above it"
			created="$created$walked
"
		else
			return 0
		fi
	done
}

trusted_directory() {
	[ -n "$(find "$1" -prune \( -user "$uid" -o -user 0 \) -print)" ] ||
		refuse "$1 belongs to another user, who could replace what is installed in it" \
			"choose a prefix whose directories only you and root own"
	[ -n "$(find "$1" -prune \( \( ! -perm -0020 ! -perm -0002 \) -o \( -user 0 -perm -1000 \) \) -print)" ] ||
		refuse "$1 is writable by group or others, who could replace what is installed in it" \
			"chmod go-w '$1', or choose another prefix"
}

# The record's entries, one a line: `file PATH SHA256` (its checksum as installed), `link
# PATH TARGET` for a symbolic link, `dir PATH` for a directory we created (`.`: the
# prefix); paths relative to the prefix. Only lines of that shape are believed.
recorded() {
	[ -f "$prefix/$record" ] || return 0
	awk '$2 !~ /\.\./ && ($2 == "." || $2 ~ /^[a-z][-a-zA-Z0-9_.\/]*$/) &&
		(($1 == "file" && NF == 3 && length($3) == 64 && $3 !~ /[^0-9a-f]/) ||
		 ($1 == "link" && NF == 3 && $3 ~ /^[-a-zA-Z0-9_.][-a-zA-Z0-9_.\/]*$/) || ($1 == "dir" && NF == 2))' \
		"$prefix/$record"
}
# Whether the record has `KIND PATH` (and, given, that checksum or link target).
is_recorded() {
	recorded | awk -v kind="$1" -v path="$2" -v sum="${3:-}" \
		'$1 == kind && $2 == path && (sum == "" || $3 == sum) { found = 1 } END { exit !found }'
}

checksum() { sha256sum <"$1" | cut -c1-64; }

uninstall() {
	[ -f "$prefix/$record" ] || refuse "nothing of ours is installed in $prefix (no $prefix/$record)" \
		"name the prefix it was installed into: --prefix DIR"
	configured_here
	kept=
	for entry in $(recorded | awk '$1 == "file" || $1 == "link" { print $2 }'); do
		target=$prefix/$entry
		trusted_path "${target%/*}"
		if [ -L "$target" ]; then
			if is_recorded link "$entry" "$(readlink "$target")"; then rm -f "$target"; else kept="$kept $target"; fi
		elif [ -f "$target" ]; then
			if is_recorded file "$entry" "$(checksum "$target")"; then rm -f "$target"; else kept="$kept $target"; fi
		fi
	done
	trusted_path "$prefix/$record_dir"
	directories=$(recorded_dirs_deepest_first)
	rm -f "$prefix/$record"
	rmdir "$prefix/$record_dir" 2>/dev/null || :
	# A directory someone else put something in stays.
	for directory in $directories; do rmdir "$directory" 2>/dev/null || :; done
	say "$program: removed git-credential-helpers from $prefix."
	[ -z "$kept" ] || say "$program: kept, changed since it was installed:$kept"
	say "Your stored credentials are kept: they are yours."
}

# git's helper lines that run a command from this prefix fail once it is gone: said before
# removing, with how to take them back (`configure` wrote them, `unconfigure` removes them).
configured_here() {
	command -v git >/dev/null 2>&1 || return 0
	lines=$(git config --show-origin --get-regexp '^credential\..*helper$' 2>/dev/null | grep -F "$prefix/bin/") || return 0
	say "$program: warning: git's configuration runs helpers from $prefix/bin, which stop working now; remove these lines (HELPER unconfigure, run before --uninstall, does it):" >&2
	say "$lines" | sed 's/^/  /' >&2
}

# Install: every file and symbolic link under bin/ and share/ beside this script, as
# `make install` staged them (the one description of the layout).
install() {
	here=$(cd -P "$(dirname "$0")" && pwd)
	[ -d "$here/bin" ] && [ -d "$here/share" ] ||
		refuse "$here has no bin/ and share/ beside install.sh" "run the install.sh of an extracted release archive"
	# What is copied (and run, by check_machine) must be what was extracted, and stay so
	# until it is copied: the directories from / down to here, and what is below, ours or
	# root's and writable by no one else (root installing from a user's download would
	# otherwise run, then install, what that user puts there meanwhile).
	trusted_path "$here"
	strange=$(find "$here/bin" "$here/share" \( \( ! -user "$uid" ! -user 0 \) -o \( ! -type l \( -perm -0020 -o -perm -0002 \) \) \) -print | head -n 1)
	[ -z "$strange" ] || refuse "$strange belongs to another user or is writable by group or others, who could change what gets installed" \
		"extract the archive again as yourself, into a directory of your own"
	check_machine "$here"
	entries=$(cd "$here" && find bin share \( -type f -o -type l \) -print | LC_ALL=C sort)

	# Nothing is changed until every target has been judged: ours, or free.
	directories=$(say "$entries" | sed 's|/[^/]*$||' | LC_ALL=C sort -u)
	for dir in $directories "$record_dir"; do
		trusted_path "$prefix/$dir"
	done
	theirs=
	for entry in $entries; do
		target=$prefix/$entry
		if [ -d "$target" ] && [ ! -L "$target" ]; then
			theirs="$theirs $target"
		elif [ -e "$target" ] || [ -L "$target" ]; then
			is_recorded file "$entry" || is_recorded link "$entry" || theirs="$theirs $target"
		fi
	done
	[ -z "$theirs" ] || refuse "not installed by this install.sh, so left alone:$theirs" \
		"remove them if they are an older installation of these helpers (make uninstall PREFIX=$prefix), or choose another --prefix"
	creating=yes
	for dir in $directories "$record_dir"; do
		trusted_path "$prefix/$dir"
	done
	real_prefix=$(cd -P "$prefix" && pwd)

	# The record first, then the files: an install cut short is ours to finish or remove.
	new_record=$prefix/$record_dir/.installed.$$
	temporary=
	trap 'rm -f "$new_record" "$temporary"' EXIT
	trap 'exit 1' HUP INT TERM
	{
		for entry in $entries; do
			if [ -L "$here/$entry" ]; then say "link $entry $(readlink "$here/$entry")"; else say "file $entry $(checksum "$here/$entry")"; fi
		done
		# What an older version installed and this one does not stays recorded, to be uninstalled.
		recorded | while IFS=' ' read -r kind entry sum; do
			case "
$entries
" in *"
$entry
"*) continue ;; esac
			say "$kind $entry${sum:+ $sum}"
		done
		for directory in $created; do
			case $directory in
			"$prefix" | "$real_prefix") say "dir ." ;;
			"$prefix"/*) say "dir ${directory#"$prefix"/}" ;;
			"$real_prefix"/*) say "dir ${directory#"$real_prefix"/}" ;;
			esac
		done
	} >"$new_record"
	chmod 644 "$new_record"
	mv -f "$new_record" "$prefix/$record"

	copied=
	for entry in $entries; do
		source=$here/$entry
		target=$prefix/$entry
		temporary=${target%/*}/.install.$$
		rm -f "$temporary"
		original=$(hard_link_of "$source" "$copied")
		if [ -n "$original" ]; then
			# Names that are one file in the archive (make install links them) stay one file.
			ln "$prefix/$original" "$temporary"
		else
			cp -P "$source" "$temporary"
			if [ ! -L "$source" ]; then
				if [ -x "$source" ]; then chmod 755 "$temporary"; else chmod 644 "$temporary"; fi
				copied="$copied$entry
"
			fi
		fi
		# rename(2) replaces the name itself; only a link of ours in the way (a directory,
		# even through a link, would take the file in) is removed first.
		if [ -L "$target" ]; then rm -f "$target"; fi
		mv -f "$temporary" "$target"
	done
	trap - EXIT HUP INT TERM
	report "$entries"
}

# The entry among $2 (installed already) that is the same file as $1 in the archive, if any.
hard_link_of() {
	for earlier in $2; do
		if [ "$here/$earlier" -ef "$1" ]; then say "$earlier"; return 0; fi
	done
}

# The absolute paths of the directories we created, deepest first.
recorded_dirs_deepest_first() {
	recorded | sed -n 's|^dir ||p' | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2- |
		while read -r entry; do if [ "$entry" = . ]; then say "$prefix"; else say "$prefix/$entry"; fi; done
}

# Refuses a machine the binaries cannot run on: another architecture, or a glibc older than
# the dynamic ones need. A missing shared library is only said: the commands that do not
# need it work (git-credential-sqlite needs none).
check_machine() {
	machine=$(uname -m)
	[ "$(uname -s)" = Linux ] && [ "$machine" = x86_64 ] ||
		refuse "these binaries are for x86_64 Linux, and this is $(uname -s) $machine" \
			"build from source: make install (README.md)"
	if [ "$required_glibc" != none ]; then
		found=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc \([0-9][0-9.]*\)$/\1/p') || found=
		[ -n "$found" ] || refuse "no GNU C library (glibc) found here, and some commands need glibc $required_glibc or newer" \
			"build from source: make install (README.md)"
		oldest=$(printf '%s\n%s\n' "$required_glibc" "$found" | sort -t. -k1,1n -k2,2n -k3,3n | head -n 1)
		[ "$oldest" = "$required_glibc" ] ||
			refuse "the commands need glibc $required_glibc or newer, and this system has $found" \
				"build from source (make install, README.md), or use a newer distribution"
	fi
	unrunnable=
	for command in $(find "$1/bin" ! -type d -print); do
		error=$("$command" --version 2>&1 >/dev/null) && continue
		unrunnable="$unrunnable
  ${command##*/}: $(say "$error" | head -n 1)"
	done
	[ -z "$unrunnable" ] ||
		say "$program: warning: these commands cannot run here yet (install the library named: on Debian and Ubuntu libsecret-1-0, on Fedora libsecret):$unrunnable" >&2
}

report() {
	say "$program: installed git-credential-helpers $version into $prefix:"
	say "  commands     $prefix/bin: $(say "$1" | sed -n 's|^bin/||p' | tr '\n' ' ' | sed 's/ $//')"
	say "  man pages    $prefix/share/man/man1"
	for dir in $(say "$1" | sed -n 's|^\(share/.*\)/[^/]*$|\1|p' | grep -v '^share/man/' | LC_ALL=C sort -u); do
		say "  completions  $prefix/$dir"
	done
	say "  record       $prefix/$record (./install.sh --uninstall --prefix $(shell_quoted "$prefix") removes what it lists)"
	case ":${PATH:-}:" in
	*":$prefix/bin:"*) ;;
	*)
		# Lines to paste: the prefix single-quoted, so nothing in it runs in the shell (attack finding).
		say "Add $prefix/bin to PATH (in ~/.profile): export PATH=$(shell_quoted "$prefix/bin"):\"\$PATH\""
		say "man then finds the pages by itself (man-db); other man programs need MANPATH=$(shell_quoted "$prefix/share/man"):"
		;;
	esac
	say "Then: git-credential-sqlite configure (or git-credential-keyring configure on a desktop)."
}

$action
