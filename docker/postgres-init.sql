-- Temporal keeps its own databases beside Purser's; auto-setup creates their schemas.
CREATE DATABASE temporal;
CREATE DATABASE temporal_visibility;
