# fish complete.fish WORD... : the candidates fish offers for the last WORD (empty to
# complete a new word) of the command line WORD..., one a line (candidate, a tab, its
# description), with `complete -C`. Completions load as in an interactive fish:
# autoloaded from $XDG_DATA_DIRS/fish/vendor_completions.d among others.

# fish 3.6 cannot tell completions run by `complete -C` where the cursor is: `commandline
# -C` fails there ("Can not set commandline in non-interactive mode"), though it works at
# the prompt. The argument parser's scripts ask (`commandline -o -tC`) for the cursor's
# index in the current token; with `complete -C` the cursor is at the end of the line,
# so that index is the token's length. Every other use of commandline is fish's own.
function commandline
    if test "$argv" = "-o -tC"
        string length -- (builtin commandline -ct)
    else
        builtin commandline $argv
    end
end

complete -C (string join ' ' -- $argv)
