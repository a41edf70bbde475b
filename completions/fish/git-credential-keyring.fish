function __git-credential-keyring_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-keyring_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __git-credential-keyring_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-keyring_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __git-credential-keyring_parse_tokens -S
    set -l unparsed_tokens (__git-credential-keyring_tokens -pc)
    switch $unparsed_tokens[1]
    case 'git-credential-keyring'
        __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'get'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'store'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'erase'
            __git-credential-keyring_parse_subcommand 1 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'capability'
            __git-credential-keyring_parse_subcommand 0 'version' 'h/help'
        case 'list'
            __git-credential-keyring_parse_subcommand 1 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'format=' 'version' 'h/help'
        case 'erase-all'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'yes' 'version' 'h/help'
        case 'import'
            __git-credential-keyring_parse_subcommand -r 1 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'from=' 'remove-source' 'file-passphrase-fd=' 'version' 'h/help'
        case 'export'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'plaintext' 'format=' 'o/output=' 'file-passphrase-fd=' 'version' 'h/help'
        case 'doctor'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'configure'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'global' 'system' 'local' 'url=' 'version' 'h/help'
        case 'unconfigure'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'global' 'system' 'local' 'url=' 'version' 'h/help'
        case 'which'
            __git-credential-keyring_parse_subcommand 1 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'status'
            __git-credential-keyring_parse_subcommand 0 'db=' 'key-file=' 'passphrase-fd=' 'grace-period=' 'version' 'h/help'
        case 'help'
            __git-credential-keyring_parse_subcommand -r 1 'version'
        end
    end
end

function __git-credential-keyring_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __git-credential-keyring_parse_subcommand -S -a positional_count
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

function __git-credential-keyring_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __git-credential-keyring_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__git-credential-keyring_tokens -p)
    if test -z "$(__git-credential-keyring_tokens -t)"
        set -l index (count (__git-credential-keyring_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'git-credential-keyring' -f
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'get' -d 'Print the stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'store' -d 'Store the credential on stdin, replacing the one for the same user and location (git calls this).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'erase' -d 'Erase every stored credential that matches the request on stdin (git calls this).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'capability' -d 'Print the protocol capabilities this helper supports.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'list' -d 'List stored credentials: protocol, host, path, user, expiry and backend, never a secret.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'erase-all' -d 'Erase every credential this helper stores: sign out everywhere.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'import' -d 'Import credentials from git-credential-store files, a netrc file, an export file or another backend.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'export' -d 'Export every stored credential, encrypted with a passphrase unless --plaintext.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'doctor' -d 'Check the setup and say what to fix: PATH, git and its configuration, the store, a round trip.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'configure' -d 'Make git use this helper (writes credential.helper).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'unconfigure' -d 'Stop git using this helper (removes what configure wrote).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'which' -d 'Say where a get for a host would be answered from now, and where a store would go, and why.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'status' -d 'The store and key git uses, locked until when, the helper git asks first.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring store" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring erase" -eq 1' -fka '(__git-credential-keyring_custom_completion ---completion erase -- positional@0 (count (__git-credential-keyring_tokens -pc)) (__git-credential-keyring_tokens -tC))'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring capability" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring capability" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" format' -l 'format' -d 'table for people, json for scripts.' -rfka 'table json'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring list" -eq 1' -fka '(__git-credential-keyring_custom_completion ---completion list -- positional@0 (count (__git-credential-keyring_tokens -pc)) (__git-credential-keyring_tokens -tC))'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase-all" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase-all" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase-all" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase-all" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase-all" yes' -l 'yes' -d 'Do not ask for confirmation.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase-all" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring erase-all" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" from' -l 'from' -d 'Import from this backend\'s store: sqlite, secretservice, pass, or gcm (Git Credential Manager\'s stores).' -rfka 'sqlite secretservice pass gcm'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" remove-source' -l 'remove-source' -d 'Wipe each plaintext source file once every credential in it reads back.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" file-passphrase-fd' -l 'file-passphrase-fd' -d 'Read an export file\'s passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_positional "git-credential-keyring import" -ge 1' -F
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" plaintext' -l 'plaintext' -d 'Write the secrets in clear (git-credential-store format).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" format' -l 'format' -d 'With --plaintext: store (one URL per line) or protocol (git\'s key=value records).' -rfka 'store protocol'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" o output' -l 'output' -s 'o' -d 'The file to write; it must not exist yet (- for standard output).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" file-passphrase-fd' -l 'file-passphrase-fd' -d 'Read the export file\'s passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring doctor" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring doctor" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring doctor" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring doctor" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring doctor" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" global' -l 'global' -d 'Your own git configuration (~/.gitconfig); the default.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" system' -l 'system' -d 'Every user\'s (/etc/gitconfig; needs root).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" local' -l 'local' -d 'The current repository\'s.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" url' -l 'url' -d 'Only for this URL (credential.<url>.helper), e.g. https://github.com.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring configure" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" global' -l 'global' -d 'Your own git configuration (~/.gitconfig); the default.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" system' -l 'system' -d 'Every user\'s (/etc/gitconfig; needs root).'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" local' -l 'local' -d 'The current repository\'s.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" url' -l 'url' -d 'Only for this URL (credential.<url>.helper), e.g. https://github.com.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring unconfigure" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring which" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring status" db' -l 'db' -d 'The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring status" key-file' -l 'key-file' -d 'The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).' -rF
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring status" passphrase-fd' -l 'passphrase-fd' -d 'Read the passphrase from this file descriptor instead of asking.' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring status" grace-period' -l 'grace-period' -d 'After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again (default: 5m; 0: never).' -rfka ''
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring status" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-keyring' -n '__git-credential-keyring_should_offer_completions_for_flags_or_options "git-credential-keyring help" version' -l 'version' -d 'Show the version.'
