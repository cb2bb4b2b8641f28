"""A change remembers the id of the request that made it, so that a retried request is applied once

Revision ID: 0008_request_ids
Revises: 0007_rate_limits
Create Date: 2026-12-05 09:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0008_request_ids'
down_revision = '0007_rate_limits'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('changes') as batch:
        batch.add_column(sa.Column('request_id', sa.String(length=40), nullable=True))
    op.create_index('ix_changes_game_request', 'changes', ['game_id', 'request_id'], unique=True)


def downgrade():
    op.drop_index('ix_changes_game_request', table_name='changes')
    with op.batch_alter_table('changes') as batch:
        batch.drop_column('request_id')
