# zsh complete.zsh SITE_FUNCTIONS WORD... : the candidates zsh offers for the last WORD
# (empty to complete a new word) of the command line WORD..., one a line. An interactive
# zsh on a pseudo-terminal (zpty) runs compinit with SITE_FUNCTIONS first on $fpath, is
# sent the line and a TAB, and prints what the completion functions add (compadd is
# wrapped), between two NUL lines; then it exits.
zmodload zsh/zpty || exit 3
site=$1; shift
zpty shell zsh -f -i
zpty -w shell 'PROMPT= RPROMPT='
zpty -w shell "fpath=(${(q)site} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w shell 'null-line() { print -n -- $'"'"'\0\r\n'"'"' }'
zpty -w shell 'compprefuncs=(null-line); comppostfuncs=(null-line exit)'
zpty -w shell 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a hits; builtin compadd -A hits "$@"; local hit
  for hit in $hits; do print -r -- "candidate:$hit"; done
  builtin compadd "$@"
}'
zpty -w shell 'bindkey "^I" complete-word'
zpty -n -w shell "$*"$'\t'
integer markers=0
while zpty -r shell chunk; do print -rn -- $chunk; done | while IFS= read -r line; do
  [[ $line == *$'\0'* ]] && { (( markers++ )); (( markers == 2 )) && exit 0; continue }
  (( markers == 1 )) && [[ $line == candidate:* ]] && print -r -- ${${line#candidate:}%$'\r'}
done
