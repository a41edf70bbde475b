function __git-credential-pass_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-pass_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __git-credential-pass_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-pass_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __git-credential-pass_parse_tokens -S
    set -l unparsed_tokens (__git-credential-pass_tokens -pc)
    switch $unparsed_tokens[1]
    case 'git-credential-pass'
        __git-credential-pass_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'get'
            __git-credential-pass_parse_subcommand 0 'version' 'h/help'
        case 'store'
            __git-credential-pass_parse_subcommand 0 'version' 'h/help'
        case 'erase'
            __git-credential-pass_parse_subcommand 1 'version' 'h/help'
        case 'capability'
            __git-credential-pass_parse_subcommand 0 'version' 'h/help'
        case 'list'
            __git-credential-pass_parse_subcommand 1 'format=' 'version' 'h/help'
        case 'erase-all'
            __git-credential-pass_parse_subcommand 0 'yes' 'shared' 'version' 'h/help'
        case 'import'
            __git-credential-pass_parse_subcommand -r 1 'from=' 'remove-source' 'file-passphrase-fd=' 'version' 'h/help'
        case 'export'
            __git-credential-pass_parse_subcommand 0 'plaintext' 'format=' 'o/output=' 'file-passphrase-fd=' 'version' 'h/help'
        case 'doctor'
            __git-credential-pass_parse_subcommand 0 'version' 'h/help'
        case 'configure'
            __git-credential-pass_parse_subcommand 0 'global' 'system' 'local' 'url=' 'version' 'h/help'
        case 'unconfigure'
            __git-credential-pass_parse_subcommand 0 'global' 'system' 'local' 'url=' 'version' 'h/help'
        case 'sync'
            __git-credential-pass_parse_subcommand 0 'version' 'h/help'
        case 'approve-keys'
            __git-credential-pass_parse_subcommand -r 1 'review' 'version' 'h/help'
        case 'status'
            __git-credential-pass_parse_subcommand 0 'version' 'h/help'
        case 'help'
            __git-credential-pass_parse_subcommand -r 1 'version'
        end
    end
end

function __git-credential-pass_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __git-credential-pass_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __git-credential-pass_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __git-credential-pass_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__git-credential-pass_tokens -p)
    if test -z "$(__git-credential-pass_tokens -t)"
        set -l index (count (__git-credential-pass_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'git-credential-pass' -f
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'get' -d 'Print the stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'store' -d 'Store the credential on stdin, replacing the one for the same user and location (git calls this).'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'erase' -d 'Erase every stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'capability' -d 'Print the protocol capabilities this helper supports.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'list' -d 'List stored credentials: protocol, host, path, user, expiry and backend, never a secret.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'erase-all' -d 'Erase every credential this helper stores: sign out everywhere.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'import' -d 'Import credentials from git-credential-store files, a netrc file, an export file or another backend.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'export' -d 'Export every stored credential, encrypted with a passphrase unless --plaintext.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'doctor' -d 'Check the setup and say what to fix: PATH, git and its configuration, the store, a round trip.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'configure' -d 'Make git use this helper (writes credential.helper).'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'unconfigure' -d 'Stop git using this helper (removes what configure wrote).'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'sync' -d 'Pull and push the password store\'s git repository, and say what changed.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'approve-keys' -d 'Approve the keys the password store\'s .gpg-id files name now, for git\'s entries.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'status' -d 'The store and key git uses, locked until when, the helper git asks first.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass get" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass store" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass store" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass erase" -eq 1' -fka '(__git-credential-pass_custom_completion ---completion erase -- positional@0 (count (__git-credential-pass_tokens -pc)) (__git-credential-pass_tokens -tC))'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass erase" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass erase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass capability" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass capability" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass list" format' -l 'format' -d 'table for people, json for scripts.' -rfka 'table json'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass list" -eq 1' -fka '(__git-credential-pass_custom_completion ---completion list -- positional@0 (count (__git-credential-pass_tokens -pc)) (__git-credential-pass_tokens -tC))'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass list" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass erase-all" yes' -l 'yes' -d 'Do not ask for confirmation.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass erase-all" shared' -l 'shared' -d 'Erase also what others hold too (a team\'s shared entries): for everyone.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass erase-all" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass erase-all" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass import" from' -l 'from' -d 'Import from this backend\'s store: sqlite, secretservice, pass, or gcm (Git Credential Manager\'s stores).' -rfka 'sqlite secretservice pass gcm'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass import" remove-source' -l 'remove-source' -d 'Wipe each plaintext source file once every credential in it reads back.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass import" file-passphrase-fd' -l 'file-passphrase-fd' -d 'Read an export file\'s passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_positional "git-credential-pass import" -ge 1' -F
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass import" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass export" plaintext' -l 'plaintext' -d 'Write the secrets in clear (git-credential-store format).'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass export" format' -l 'format' -d 'With --plaintext: store (one URL per line) or protocol (git\'s key=value records).' -rfka 'store protocol'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass export" o output' -l 'output' -s 'o' -d 'The file to write; it must not exist yet (- for standard output).' -rF
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass export" file-passphrase-fd' -l 'file-passphrase-fd' -d 'Read the export file\'s passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass export" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass doctor" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass configure" global' -l 'global' -d 'Your own git configuration (~/.gitconfig); the default.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass configure" system' -l 'system' -d 'Every user\'s (/etc/gitconfig; needs root).'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass configure" local' -l 'local' -d 'The current repository\'s.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass configure" url' -l 'url' -d 'Only for this URL (credential.<url>.helper), e.g. https://github.com.' -rfka ''
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass configure" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass configure" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass unconfigure" global' -l 'global' -d 'Your own git configuration (~/.gitconfig); the default.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass unconfigure" system' -l 'system' -d 'Every user\'s (/etc/gitconfig; needs root).'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass unconfigure" local' -l 'local' -d 'The current repository\'s.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass unconfigure" url' -l 'url' -d 'Only for this URL (credential.<url>.helper), e.g. https://github.com.' -rfka ''
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass unconfigure" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass unconfigure" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass sync" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass approve-keys" review' -l 'review' -d 'Show each .gpg-id, its keys and what changed since the last approval; approve nothing.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass approve-keys" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass approve-keys" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass status" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-pass' -n '__git-credential-pass_should_offer_completions_for_flags_or_options "git-credential-pass help" version' -l 'version' -d 'Show the version.'
