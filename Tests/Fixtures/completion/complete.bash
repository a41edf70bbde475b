# bash complete.bash WORD... : the candidates bash offers for the last WORD (empty to
# complete a new word) of the command line WORD..., one a line. The command's completion
# is loaded as an interactive bash loads it: bash-completion's loader, which looks in
# $XDG_DATA_DIRS/bash-completion/completions. First line: the command's `complete -p`.
# No `set -u`: completion functions run in people's shells, which do not set it.
. /usr/share/bash-completion/bash_completion
__load_completion "$1" || { echo "no completion found for $1" >&2; exit 3; }
spec=$(complete -p "$1") || exit 3
printf '%s\n' "$spec"
function=$(printf '%s\n' "$spec" | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
[ -n "$function" ] || { echo "not a function completion: $spec" >&2; exit 3; }
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMP_TYPE=9
COMP_KEY=9
COMPREPLY=()
"$function" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
