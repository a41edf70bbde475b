function __git-credential-sqlite_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-sqlite_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __git-credential-sqlite_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-sqlite_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __git-credential-sqlite_parse_tokens -S
    set -l unparsed_tokens (__git-credential-sqlite_tokens -pc)
    switch $unparsed_tokens[1]
    case 'git-credential-sqlite'
        __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        switch $unparsed_tokens[1]
        case 'get'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'store'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'erase'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'capability'
            __git-credential-sqlite_parse_subcommand 0 'h/help'
        case 'list'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'import'
            __git-credential-sqlite_parse_subcommand 1 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'init'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'passphrase' 'h/help'
        case 'passwd'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'new-passphrase-fd=' 'h/help'
        case 'unlock'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'timeout=' 'h/help'
        case 'lock'
            __git-credential-sqlite_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'h/help'
        case 'help'
            __git-credential-sqlite_parse_subcommand -r 1 
        end
    end
end

function __git-credential-sqlite_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __git-credential-sqlite_parse_subcommand -S -a positional_count
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

function __git-credential-sqlite_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __git-credential-sqlite_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__git-credential-sqlite_tokens -p)
    if test -z "$(__git-credential-sqlite_tokens -t)"
        set -l index (count (__git-credential-sqlite_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'git-credential-sqlite' -f
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'get' -d 'Print the stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'store' -d 'Store the credential on stdin, replacing the one for the same user and location (git calls this).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'erase' -d 'Erase every stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'capability' -d 'Print the protocol capabilities this helper supports.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'list' -d 'List stored credentials: protocol, host, path, user and expiry, never a secret.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'import' -d 'Import a git-credential-store file (one URL per line, as ~/.git-credentials).'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'init' -d 'Create the store, with a key file or (--passphrase) protected by a passphrase.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'passwd' -d 'Change the passphrase of a passphrase-protected store.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'unlock' -d 'Keep the unlocked key in the kernel keyring for a while, so git is not asked for the passphrase.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'lock' -d 'Drop the unlocked key from the kernel keyring.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_positional "git-credential-sqlite" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite store" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite erase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite capability" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" passphrase' -l 'passphrase' -d 'Protect the store with a passphrase instead of a key file.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite init" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" new-passphrase-fd' -l 'new-passphrase-fd' -d 'Read the new passphrase from this file descriptor.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite passwd" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" timeout' -l 'timeout' -d 'How long: seconds, or a number with s, m, h or d.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite unlock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" db' -l 'db' -d 'The database file (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" key-file' -l 'key-file' -d 'The key file (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-sqlite' -n '__git-credential-sqlite_should_offer_completions_for_flags_or_options "git-credential-sqlite lock" h help' -s 'h' -l 'help' -d 'Show help information.'
