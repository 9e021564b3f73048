# Install rules and package files (SPEC.md section 3).
