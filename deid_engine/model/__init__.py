"""The neural PHI tagger: BiLSTM-CRF with character features and a text-skeleton branch."""
