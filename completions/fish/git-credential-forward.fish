function __git-credential-forward_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-forward_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __git-credential-forward_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __git-credential-forward_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __git-credential-forward_parse_tokens -S
    set -l unparsed_tokens (__git-credential-forward_tokens -pc)
    switch $unparsed_tokens[1]
    case 'git-credential-forward'
        __git-credential-forward_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'get'
            __git-credential-forward_parse_subcommand 0 'socket=' 'version' 'h/help'
        case 'store'
            __git-credential-forward_parse_subcommand 0 'socket=' 'version' 'h/help'
        case 'erase'
            __git-credential-forward_parse_subcommand 0 'socket=' 'version' 'h/help'
        case 'serve'
            __git-credential-forward_parse_subcommand 1 'host=+' 'allow-store' 'allow-erase' 'confirm' 'log=' 'socket=' 'for=' 'while=' 'version' 'h/help'
        case 'setup'
            __git-credential-forward_parse_subcommand 1 'host=+' 'allow-store' 'allow-erase' 'confirm' 'remote-home=' 'version' 'h/help'
        case 'claim'
            __git-credential-forward_parse_subcommand 0 'version' 'h/help'
        case 'doctor'
            __git-credential-forward_parse_subcommand 1 'socket=' 'version' 'h/help'
        case 'capability'
            __git-credential-forward_parse_subcommand 0 'version' 'h/help'
        case 'help'
            __git-credential-forward_parse_subcommand -r 1 'version'
        end
    end
end

function __git-credential-forward_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __git-credential-forward_parse_subcommand -S -a positional_count
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

function __git-credential-forward_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __git-credential-forward_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__git-credential-forward_tokens -p)
    if test -z "$(__git-credential-forward_tokens -t)"
        set -l index (count (__git-credential-forward_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'git-credential-forward' -f
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'get' -d 'Ask your machine for the credential of the request on stdin (git calls this).'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'store' -d 'Pass the credential on stdin to your machine to store, where serve allows it (git calls this).'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'erase' -d 'Pass the request on stdin to your machine to erase, where serve allows it (git calls this).'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'serve' -d 'On your machine: answer the remote NAME\'s requests with your own credential helpers.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'setup' -d 'Print the lines that forward your credential helpers to the remote NAME: serve, ssh\'s RemoteForward, the remote\'s credential.helper.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'claim' -d 'On the remote, from ~/.ssh/rc: move this ssh session\'s socket on, so that the next session can bind its path.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'doctor' -d 'Check a forward and say what to fix: on the remote (no NAME) or on your machine (serve NAME).'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'capability' -d 'Print the protocol capabilities this helper supports.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_positional "git-credential-forward" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward get" socket' -l 'socket' -d 'The forwarded socket (default: $GIT_CREDENTIAL_FORWARD_SOCKET, else ~/.git-credential-forward.sock).' -rF
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward get" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward store" socket' -l 'socket' -d 'The forwarded socket (default: $GIT_CREDENTIAL_FORWARD_SOCKET, else ~/.git-credential-forward.sock).' -rF
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward store" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward store" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward erase" socket' -l 'socket' -d 'The forwarded socket (default: $GIT_CREDENTIAL_FORWARD_SOCKET, else ~/.git-credential-forward.sock).' -rF
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward erase" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward erase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve"' -l 'host' -d 'A host whose credential the remote may get: HOST (any port) or HOST:PORT. Repeat for more; none: nothing is answered.' -rfka ''
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" allow-store' -l 'allow-store' -d 'Let the remote store credentials in your helpers (a token refreshed there).'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" allow-erase' -l 'allow-erase' -d 'Let the remote erase credentials from your helpers (a password the server rejected).'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" confirm' -l 'confirm' -d 'Ask on your desktop before each answer (SSH_ASKPASS, else ssh-askpass); no one there: no.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" log' -l 'log' -d 'Write the line for each request (what was asked and what was done, never a secret) to this file instead of stderr.' -rF
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" socket' -l 'socket' -d 'Listen here instead of the default socket; its directory must hold nothing else.' -rF
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" for' -l 'for' -d 'Stop by itself after this long: 90s, 30m, 2h (default: until stopped).' -rfka ''
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" while' -l 'while' -d 'Stop by itself when the process PID ends (ssh\'s LocalCommand: --while $PPID).' -rfka ''
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward setup"' -l 'host' -d 'A host whose credential the remote may get: HOST (any port) or HOST:PORT. Repeat for more; none: nothing is answered.' -rfka ''
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward setup" allow-store' -l 'allow-store' -d 'Let the remote store credentials in your helpers (a token refreshed there).'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward setup" allow-erase' -l 'allow-erase' -d 'Let the remote erase credentials from your helpers (a password the server rejected).'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward setup" confirm' -l 'confirm' -d 'Ask on your desktop before each answer (SSH_ASKPASS, else ssh-askpass); no one there: no.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward setup" remote-home' -l 'remote-home' -d 'The remote user\'s home directory (default: /home/USER, with ssh -G NAME\'s user).' -rfka ''
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward setup" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward setup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward claim" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward claim" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward doctor" socket' -l 'socket' -d 'The socket to check instead of the default one.' -rF
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward doctor" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward capability" version' -l 'version' -d 'Show the version.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward capability" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'git-credential-forward' -n '__git-credential-forward_should_offer_completions_for_flags_or_options "git-credential-forward help" version' -l 'version' -d 'Show the version.'
