"""A game the table ended before its last hand

Revision ID: 0005_ended_early
Revises: 0004_raw_penalty
Create Date: 2026-12-01 20:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0005_ended_early'
down_revision = '0004_raw_penalty'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch_op:
        batch_op.add_column(sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('games') as batch_op:
        batch_op.drop_column('ended_at')
